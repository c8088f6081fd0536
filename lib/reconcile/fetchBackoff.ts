import type { FetchBackoff } from '../track/trackObject';

/**
 * `status.fetchBackoff`: how many runs of a track in a row failed to fetch its commit (a
 * GitFetchError: unreachable, refused, timed out, over a cap, …) and until when the drift sweep
 * leaves the track alone. Written by the engine in the run's one status write; cleared by a run
 * that fetched. Only the sweep reads it: a push, a replay or `lightkeeper reconcile` runs at once.
 */

/** The delay after the first failure: one sweep period. */
export const fetchBackoffBaseMs = 5 * 60_000;
/** The longest delay: a failing track is still retried at least hourly. */
export const fetchBackoffCapMs = 60 * 60_000;
/**
 * The sweep takes a track this much before its `retryAfter`: a run lands seconds after the sweep
 * that started it, so with no slack the next sweep would always come just too early.
 */
export const sweepSlackMs = 60_000;

/** The delay after `failures` consecutive failures: 5 min doubling (5, 10, 20, 40 min), at most 1 h. */
export function fetchBackoffDelayMs(failures: number): number {
  const doublings = Math.min(Math.max(failures, 1) - 1, 16);
  return Math.min(fetchBackoffBaseMs * 2 ** doublings, fetchBackoffCapMs);
}

/** The backoff after one more run failed to fetch, at `now`. */
export function nextFetchBackoff(previous: FetchBackoff | undefined, now: Date): FetchBackoff {
  const failures = (previous?.failures ?? 0) + 1;
  return { failures, retryAfter: new Date(now.getTime() + fetchBackoffDelayMs(failures)).toISOString() };
}

/** True while the drift sweep should leave a track with this backoff alone. */
export function inFetchBackoff(backoff: FetchBackoff | undefined, now: Date): boolean {
  if (!backoff) return false;
  const until = Date.parse(backoff.retryAfter);
  return Number.isFinite(until) && now.getTime() < until - sweepSlackMs;
}

/** The line the Ready condition carries while a track is backed off. */
export const fetchBackoffMessage = (b: FetchBackoff): string =>
  `fetch failed ${b.failures === 1 ? 'once' : `${b.failures} times in a row`}; the sweep retries after ${b.retryAfter}`;

/** `status.fetchBackoff` as read from the API server, or undefined when absent or malformed. */
export function readFetchBackoff(status: unknown): FetchBackoff | undefined {
  const b = (status as { fetchBackoff?: unknown } | null | undefined)?.fetchBackoff as
    | Partial<FetchBackoff>
    | null
    | undefined;
  if (!b || typeof b.failures !== 'number' || typeof b.retryAfter !== 'string') return undefined;
  return { failures: b.failures, retryAfter: b.retryAfter };
}

/**
 * Why a drift check (the sweep's request) does not run: the track it reads under the lease is backed
 * off. The sweep listed the track before a run wrote that backoff (the check waited for that run, or
 * started after it ended); without this the check would stall on the same git server at once. The
 * sweep's own test (`inFetchBackoff`) only turns false with time, so a check the sweep started on a
 * track it found not backed off is never stopped by the passing of time alone.
 */
export function driftBackedOff(status: unknown, now: Date): string | undefined {
  const backoff = readFetchBackoff(status);
  return backoff && inFetchBackoff(backoff, now) ? `backed off: ${fetchBackoffMessage(backoff)}` : undefined;
}
