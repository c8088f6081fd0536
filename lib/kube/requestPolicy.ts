import { type Env, integer, milliseconds, readSetting } from '../settings/setting';

/** The HTTP methods the API client sends. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Deadlines and retries of every request to the API server. */
export interface RequestPolicy {
  /** Opening a connection, TCP and TLS (`LIGHTKEEPER_CONNECT_TIMEOUT_MS`, default 5 s). */
  connectTimeoutMs: number;
  /**
   * From sending a request to its response headers, and between chunks of its body
   * (`LIGHTKEEPER_REQUEST_TIMEOUT_MS`, default 30 s). Nothing lightkeeper asks takes longer:
   * it never watches, and its waits (CRDs established, a recreated object gone) poll with GETs.
   */
  responseTimeoutMs: number;
  /** Attempts of a request that may be retried (`LIGHTKEEPER_REQUEST_ATTEMPTS`, default 3). */
  attempts: number;
  /** First backoff, doubled on each retry up to `maxDelayMs`, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Attempts of a request the server throttled (429 with Retry-After), as client-go allows. */
  throttledAttempts: number;
  /**
   * Items per page of a LIST read whole (`limit` + `continue`; `LIGHTKEEPER_LIST_PAGE_SIZE`, default
   * 1,000): a reconcile keeps what it needs of each page, never a whole list's body. Twice client-go's
   * 500: each page is a round trip a no-op waits for (~25 ms on a loaded 2-core plane), and a page of
   * 1,000 tracking objects is ~2 MB of JSON.
   */
  listPageSize: number;
}

export const defaultRequestPolicy: RequestPolicy = {
  connectTimeoutMs: 5_000,
  responseTimeoutMs: 30_000,
  attempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  throttledAttempts: 20,
  listPageSize: 1_000,
};

/** The settings of the policy; the backoff is fixed. */
export const requestPolicySettings = {
  connectTimeoutMs: milliseconds('LIGHTKEEPER_CONNECT_TIMEOUT_MS', defaultRequestPolicy.connectTimeoutMs),
  responseTimeoutMs: milliseconds('LIGHTKEEPER_REQUEST_TIMEOUT_MS', defaultRequestPolicy.responseTimeoutMs),
  attempts: integer('LIGHTKEEPER_REQUEST_ATTEMPTS', defaultRequestPolicy.attempts, { min: 1 }),
  listPageSize: integer('LIGHTKEEPER_LIST_PAGE_SIZE', defaultRequestPolicy.listPageSize, { min: 1 }),
} as const;

/** The policy with the environment's overrides; an invalid value is a ConfigError at start. */
export function requestPolicyFromEnv(env: Env): RequestPolicy {
  return {
    ...defaultRequestPolicy,
    connectTimeoutMs: readSetting(env, requestPolicySettings.connectTimeoutMs),
    responseTimeoutMs: readSetting(env, requestPolicySettings.responseTimeoutMs),
    attempts: readSetting(env, requestPolicySettings.attempts),
    listPageSize: readSetting(env, requestPolicySettings.listPageSize),
  };
}

/**
 * For a caller with a short deadline of its own (the webhook answers GitHub within 10 s): at
 * most 2 attempts of 1.5 s to connect and 3 s to answer, so a dead API server costs < 8 s.
 */
export const shortDeadlinePolicy = (policy: RequestPolicy): RequestPolicy => ({
  ...policy,
  connectTimeoutMs: Math.min(policy.connectTimeoutMs, 1_500),
  responseTimeoutMs: Math.min(policy.responseTimeoutMs, 3_000),
  attempts: Math.min(policy.attempts, 2),
});

/** How one attempt failed, as far as retrying is concerned. */
export type RequestFailure =
  /** No answer. `sent: false` when the request never left (refused, no connection): nothing happened. */
  | { kind: 'transport'; sent: boolean; transient: boolean }
  | { kind: 'status'; status: number; retryAfterMs?: number };

/**
 * Whether to try `attempt + 1`, and after how long; `undefined` to give up. Reads (GET) are
 * retried on transient transport failures, 5xx and 429; writes only when the server certainly
 * did not act: never sent, or throttled (429: the server has not acted). A write that was sent
 * and got no answer may have been applied, so it is never repeated blindly.
 */
export function retryDelay(
  method: Method,
  failure: RequestFailure,
  attempt: number,
  policy: RequestPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (failure.kind === 'status' && failure.status === 429) {
    if (attempt >= policy.throttledAttempts) return undefined;
    return failure.retryAfterMs ?? backoff(attempt, policy, random);
  }
  if (attempt >= policy.attempts) return undefined;
  const idempotent = method === 'GET';
  const retryable =
    failure.kind === 'transport'
      ? failure.transient && (idempotent || !failure.sent)
      : idempotent && failure.status >= 500;
  return retryable ? backoff(attempt, policy, random) : undefined;
}

/** Exponential backoff with "equal jitter": half the delay fixed, half random. */
export function backoff(attempt: number, policy: RequestPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
