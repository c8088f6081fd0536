import { isInfrastructureError } from '../errors';
import { ssmParameterError } from './ssmParameterError';

/** What the webhook answers and logs when handling a delivery threw. */
export interface WebhookFailure {
  status: 500 | 503;
  body: { error: string };
  log: { message: string; fields: Record<string, unknown> };
}

/**
 * An unreadable SSM parameter is named in the log only (the answer faces the internet); an API
 * server that cannot be reached is a 503 GitHub may redeliver; anything else a 500.
 */
export function webhookFailure(error: unknown): WebhookFailure {
  const unreadable = ssmParameterError(error);
  if (unreadable)
    return {
      status: 500,
      body: { error: 'webhook configuration unavailable' },
      log: { message: `refusing delivery: ${unreadable.message}`, fields: { hint: unreadable.hint } },
    };
  const log = { message: 'webhook failed', fields: { error } };
  return isInfrastructureError(error)
    ? { status: 503, body: { error: 'the Kubernetes API server is unavailable; redeliver later' }, log }
    : { status: 500, body: { error: 'internal error' }, log };
}
