import { DEFAULT_GIT_LIMITS, type GitLimits } from '../settings/sourceLimits';
import type { GitAuth } from './authHeaders';
import { openConnection } from './gitConnection';
import { refusePlainHttpCredentials } from './refusePlainHttpCredentials';
import { resolveReference } from './resolveReference';
import { toGitFetchError } from './toGitFetchError';

/**
 * The commit `reference` names on the remote right now, by one ref listing (nothing fetched): what a
 * pinned track reports as its head, and a dependency's head. Bounded like a fetch (GitLimits, and
 * the run's `deadline` when given).
 */
export async function resolveHead(options: {
  url: string;
  reference: string;
  auth?: GitAuth;
  limits?: GitLimits;
  deadline?: number;
}): Promise<string> {
  const { url, reference, auth } = options;
  refusePlainHttpCredentials(url, auth);
  const connection = openConnection({
    url,
    auth,
    limits: options.limits ?? DEFAULT_GIT_LIMITS,
    deadline: options.deadline,
  });
  try {
    return (await resolveReference(connection, reference)).oid;
  } catch (error) {
    throw toGitFetchError(error, url, connection);
  }
}
