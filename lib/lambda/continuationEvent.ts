import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import type { ReconcileSummary } from '../reconcile/types';

/**
 * The event that goes on with a run that ran out of time: the same track and mode, the SAME commit
 * (a push in between must not change what this chain applies), marked as a continuation so it
 * never pins the track and stands down if another commit was attempted meanwhile. Undefined when
 * the run does not continue.
 */
export function continuationEvent(
  event: ReconcileEvent,
  summary: ReconcileSummary,
): ReconcileEvent | undefined {
  // A sharded run goes on in its shards (shardEvents.ts), not in a continuation.
  if (summary.result !== 'Continuing' || summary.commit === undefined || summary.shards) return undefined;
  return {
    track: event.track,
    commit: summary.commit,
    continuation: true,
    mode: event.mode,
    reason: event.continuation ? event.reason : `${event.reason}, continued`,
    ...(event.push ? { push: event.push } : {}),
  };
}
