import { createHash } from 'node:crypto';

// The annotation lightkeeper.dev/requestedAt is the tenant's: whoever may patch the track writes
// its bytes. A new value asks for one reconcile (as Flux's reconcile.fluxcd.io/requestedAt); the
// value itself is copied only when it reads as a request stamp, so no tenant-sized or multi-line
// text reaches status, Event messages, logs or a Lambda payload.

/** The longest value copied as it is: an RFC 3339 time with nanoseconds and zone takes 35. */
export const maxRequestedAtLength = 64;

// Control characters (newlines among them), format characters (bidirectional overrides), and the
// line and paragraph separators.
const unprintable = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** Why a value of the annotation is not copied as it is, or undefined when it may be. */
export function requestedAtProblem(value: string): string | undefined {
  if (value.length > maxRequestedAtLength)
    return `${value.length} characters, more than ${maxRequestedAtLength}`;
  if (unprintable.test(value)) return 'it holds control or format characters (a newline, a tab…)';
  return undefined;
}

/**
 * The request a value stands for, as `status.lastHandledRequestedAt` records it and the run's
 * reason names it: the value itself, or for one that may not be copied its digest (the same value
 * gives the same digest, so the every-minute check sees it handled); undefined for no request.
 */
export function requestToken(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (requestedAtProblem(value) === undefined) return value;
  return `sha256:${createHash('sha256').update(value).digest('hex').slice(0, 16)}`;
}
