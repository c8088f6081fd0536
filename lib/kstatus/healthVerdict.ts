import type { ObjectCondition } from './fields';
import type { Health } from './health';

/** The `Healthy` condition of a tracking object, and how its child counts in the track's totals. */
export interface HealthVerdict {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  counted: 'healthy' | 'progressing' | 'failed';
}

export interface VerdictOptions {
  /** The track's spec.healthTimeout in ms; undefined: progress is never judged a failure. */
  timeoutMs?: number | undefined;
  /** The tracking object's current `Healthy` condition. */
  previous?: ObjectCondition | undefined;
  /** When this run applied the child (epoch ms); undefined: this run did not change it. */
  appliedAt?: number | undefined;
  now: number;
}

// A reason copied from a custom resource's condition must still be one the CRD accepts.
const reasonPattern = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
const conditionReason = (reason: string) =>
  reason.length <= 1024 && reasonPattern.test(reason) ? reason : 'Unhealthy';

const formatMs = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`);

/**
 * From a child's health to its tracking object's `Healthy` condition (pure). A child still in
 * progress fails its health check once it has been so for longer than the timeout: counted from
 * the apply that changed it, or, for a child this run left alone, from when its condition last
 * turned not-True. That clock is on the tracking object, so the sweep reaches the same verdict a
 * waiting run would, and no run has to wait for it.
 */
export function healthVerdict(health: Health, options: VerdictOptions): HealthVerdict {
  if (health.status === 'Current')
    return {
      status: 'True',
      reason: conditionReason(health.reason),
      message: health.message,
      counted: 'healthy',
    };
  if (health.status === 'Failed' || health.status === 'NotFound')
    return {
      status: 'False',
      reason: conditionReason(health.reason),
      message: health.message,
      counted: 'failed',
    };
  const { timeoutMs, previous, appliedAt, now } = options;
  if (timeoutMs !== undefined) {
    // Once timed out, a child left alone stays so until it is healthy or applied again.
    const timedOut = appliedAt === undefined && previous?.reason === 'HealthCheckTimeout';
    const since = appliedAt ?? progressingSince(previous, now);
    if (timedOut || now - since >= timeoutMs)
      return {
        status: 'False',
        reason: 'HealthCheckTimeout',
        message: `not healthy within ${formatMs(timeoutMs)}: ${health.message}`,
        counted: 'failed',
      };
  }
  return { status: 'Unknown', reason: 'Progressing', message: health.message, counted: 'progressing' };
}

function progressingSince(previous: ObjectCondition | undefined, now: number): number {
  if (!previous || previous.status === 'True') return now;
  const at = Date.parse(previous.lastTransitionTime ?? '');
  return Number.isFinite(at) ? at : now;
}

const progressing = (c: { status?: string; reason?: string }) =>
  c.status === 'Unknown' && c.reason === 'Progressing';

/**
 * Whether two `Healthy` conditions say the same: status, reason and message, except that a child
 * still progressing is not re-recorded for its progress message alone (`Replicas: 0/3` becoming
 * `1/3`): that would cost a write per rollout step; the track's own condition, written every run,
 * names what is still progressing with its current message.
 */
export function sameHealth(
  a: { status?: string; reason?: string; message?: string } | undefined,
  b: { status?: string; reason?: string; message?: string } | undefined,
): boolean {
  if (!a || !b) return a === b;
  if (a.status !== b.status || a.reason !== b.reason) return false;
  return a.message === b.message || progressing(a);
}

/** Whether a tracking object's condition must be rewritten to say `verdict`. */
export const verdictChanged = (verdict: HealthVerdict, previous: ObjectCondition | undefined) =>
  !sameHealth(previous, verdict);
