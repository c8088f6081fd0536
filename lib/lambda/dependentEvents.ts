import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import type { ReconcileSummary } from '../reconcile/types';
import { trackLabel } from '../track/trackRef';

/**
 * The events that reconcile a track's dependents once it became Ready (summary.dependents, see
 * lib/depends): each reconciles its own head or pin (no commit named), and carries the push that
 * started this chain when it follows the same repository, so its commit status lands on that
 * commit (without its delivery id: lib/reconcile/deliveryServed.ts). Empty when there is nothing to
 * go on with.
 */
export function dependentEvents(event: ReconcileEvent, summary: ReconcileSummary): ReconcileEvent[] {
  const ready = `${trackLabel(summary.track)} Ready at ${summary.commit}`;
  return (summary.dependents ?? []).map(({ track, sameRepository }) => ({
    track,
    mode: 'apply',
    reason: `${ready} (${event.reason})`.slice(0, 300),
    // Not the delivery: this is the chain's own work, which a delivery served already must not stop.
    ...(sameRepository && event.push
      ? { push: { after: event.push.after, committedAt: event.push.committedAt } }
      : {}),
  }));
}
