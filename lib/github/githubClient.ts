import { Octokit } from '@octokit/core';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';

const GitHub = Octokit.plugin(retry, throttling);
export type GitHubClient = InstanceType<typeof GitHub>;

export interface GitHubClientOptions {
  token: string;
  /** `https://api.github.com`, or GitHub Enterprise's `https://<host>/api/v3`. */
  baseUrl?: string | undefined;
  /** How often a rate-limited request is tried again before it is given up. */
  rateLimitRetries?: number;
  /** A limit that resets later than this is not waited for (a Lambda has minutes, not an hour). */
  maxRetryAfterSeconds?: number;
  /** Retries of a server error (5xx) and their base delay (the retry plugin squares the count). */
  retries?: number;
  retryDelayMs?: number;
  /** Milliseconds per second of `retry-after` or `x-ratelimit-reset` (tests shorten the wait). */
  rateLimitUnitMs?: number;
  onRetry?: (what: string, retryAfterSeconds: number) => void;
}

/**
 * An Octokit client that waits out GitHub's rate limits (primary: `x-ratelimit-reset`; secondary:
 * `retry-after`) a few times, and retries server errors, before a request fails.
 */
export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const rateLimitRetries = options.rateLimitRetries ?? 2;
  const onLimit =
    (what: string) => (retryAfter: number, _request: unknown, _octokit: unknown, retryCount: number) => {
      if (retryCount >= rateLimitRetries || retryAfter > (options.maxRetryAfterSeconds ?? 30)) return false;
      options.onRetry?.(what, retryAfter);
      return true;
    };
  return new GitHub({
    auth: options.token,
    ...(options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, '') } : {}),
    userAgent: 'lightkeeper',
    retry: {
      retries: options.retries ?? 2,
      retryAfterBaseValue: options.retryDelayMs ?? 1000,
    },
    throttle: {
      onRateLimit: onLimit('rate limit'),
      onSecondaryRateLimit: onLimit('secondary rate limit'),
      ...(options.rateLimitUnitMs !== undefined ? { retryAfterBaseValue: options.rateLimitUnitMs } : {}),
    },
  });
}

/** The API base URL a client sends to. */
export const apiUrl = (client: GitHubClient): string => client.request.endpoint.DEFAULTS.baseUrl;
