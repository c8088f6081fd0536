import { KubeApiError } from '../errors';

/**
 * The error for an API server's answer outside 2xx: its `Status` reason and message when the body
 * is one, else the body's start; a 429 carries the server's Retry-After (at most 2 s).
 */
export function answerError(
  statusCode: number,
  text: string,
  retryAfter: string | string[] | undefined,
  subject: string,
): KubeApiError {
  let reason: string | undefined;
  let message = text.slice(0, 2000);
  try {
    const status = JSON.parse(text) as { reason?: string; message?: string };
    reason = status.reason;
    message = status.message ?? message;
  } catch {}
  const error = new KubeApiError(statusCode, reason, `${subject}: ${message}`, { subject });
  if (statusCode === 429) {
    const seconds = Number(retryAfter ?? 1);
    error.retryAfterMs = Math.min(Number.isFinite(seconds) ? seconds : 1, 2) * 1000;
  }
  return error;
}
