import { trackLabel } from '../track/trackRef';
import type { DeliveryResult } from './handleDelivery';

export interface DeliveryLog {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

/** What the webhook answers GitHub for a delivery, and what it logs about it. */
export interface DeliveryResponse {
  status: 200 | 202 | 400 | 401 | 413 | 500;
  body: Record<string, unknown>;
  logs: DeliveryLog[];
  /** Reconciles actually started (0 unless the outcome is `triggered`). */
  reconcilesTriggered: number;
}

const answer = (
  status: DeliveryResponse['status'],
  body: Record<string, unknown>,
  logs: DeliveryLog[] = [],
) => ({
  status,
  body,
  logs,
  reconcilesTriggered: 0,
});

/**
 * The answer GitHub's webhook protocol expects for each outcome: 2xx for a delivery taken (even when
 * ignored), 4xx for one that will never be taken, 500 for one worth redelivering.
 */
export function deliveryResponse(result: DeliveryResult): DeliveryResponse {
  switch (result.outcome) {
    case 'too-large':
      return answer(413, { error: result.reason }, [refused({ reason: result.reason })]);
    case 'unauthorized':
      return answer(401, { error: result.reason }, [refused({ reason: result.reason })]);
    case 'malformed':
      return answer(400, { error: result.reason }, [
        refused({ delivery: result.delivery, reason: result.reason }),
      ]);
    case 'pong':
      return answer(200, { pong: true }, [
        {
          level: 'info',
          message: 'ping received',
          fields: { delivery: result.delivery, hook: result.hookId },
        },
      ]);
    case 'ignored':
      return answer(202, { ignored: result.reason }, [
        {
          level: 'info',
          message: 'delivery ignored',
          fields: { delivery: result.delivery, reason: result.reason },
        },
      ]);
    case 'triggered': {
      const failed = new Set(result.failed.map((f) => f.track));
      const triggered = result.triggered.filter((t) => !failed.has(t)).map(trackLabel);
      const skipped = result.skipped.map((s) => ({ track: trackLabel(s.track), reason: s.reason }));
      const fields = {
        delivery: result.delivery,
        ref: result.push.ref,
        after: result.push.after,
        triggered,
        skipped,
      };
      if (result.failed.length === 0) {
        return {
          status: 202,
          body: { triggered, skipped },
          logs: [{ level: 'info', message: 'delivery accepted', fields }],
          reconcilesTriggered: triggered.length,
        };
      }
      // 500 makes GitHub show the delivery as failed, so it can be redelivered; a repeated
      // reconcile of the same head is harmless.
      return {
        status: 500,
        body: {
          error: 'some reconciles could not be started',
          triggered,
          failed: [...failed].map(trackLabel),
        },
        logs: result.failed.map((f) => ({
          level: 'error' as const,
          message: 'reconcile not started',
          fields: { track: trackLabel(f.track), error: f.error },
        })),
        reconcilesTriggered: triggered.length,
      };
    }
  }
}

const refused = (fields: Record<string, unknown>): DeliveryLog => ({
  level: 'warn',
  message: 'delivery refused',
  fields,
});
