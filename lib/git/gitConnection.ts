import type { HttpClient } from 'isomorphic-git';
import type { GitLimitError } from '../errors';
import type { GitLimits } from '../settings/sourceLimits';
import { authHeaders, type GitAuth } from './authHeaders';
import { boundedHttp, startTransfer } from './boundedHttp';
import { redactUrl } from './redactUrl';

/**
 * Everything about where and how one fetch or ref listing talks to its server, decided by the
 * caller: the URL, the credentials' headers, and a transport bounded in time, rate and size.
 */
export interface GitConnection {
  url: string;
  headers: Record<string, string>;
  http: HttpClient;
  limits: GitLimits;
  /** The URL without credentials, for errors. */
  subject: string;
  /** The limit a request went over, if one did: the real cause of whatever the fetch threw. */
  overLimit(): GitLimitError | undefined;
}

export function openConnection(options: {
  url: string;
  auth?: GitAuth;
  limits: GitLimits;
  /** The run's own deadline (epoch ms), when it has one: no transfer outlasts it. */
  deadline?: number;
}): GitConnection {
  const { url, limits } = options;
  const subject = redactUrl(url);
  const transfer = startTransfer(limits, subject, options.deadline);
  return {
    url,
    headers: authHeaders(options.auth),
    http: boundedHttp(transfer),
    limits,
    subject,
    overLimit: () => transfer.failure,
  };
}

/**
 * isomorphic-git's connection arguments, every one given: any left out (a CORS proxy, the remote's
 * URL) it would read from the clone's `.git/config`, which is not ours to trust.
 */
export function remoteArgs(connection: GitConnection) {
  const { http, url, headers } = connection;
  return { http, url, headers, corsProxy: '', remote: 'origin' };
}
