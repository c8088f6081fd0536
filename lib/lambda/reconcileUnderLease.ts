import type { LeaseOptions } from '../lease/acquireTrackLease';
import { type CoalescedReconcile, isCoalesced } from '../lease/coalesced';
import { leaseTarget } from '../lease/leaseTarget';
import type { ServedReconcile } from '../lease/served';
import type { TrackLease } from '../lease/trackLease';
import { waiterQueued } from '../lease/waiterQueued';
import { withTrackLease } from '../lease/withTrackLease';
import { reconcile } from '../reconcile/reconcile';
import type { ReconcileDeps } from '../reconcile/reconcileDeps';
import type { ReconcileRequest, ReconcileSummary } from '../reconcile/types';
import { loadTrack } from '../track/loadTrack';
import type { TrackObject } from '../track/trackObject';

export interface LeasedReconcileOptions extends Omit<LeaseOptions, 'coalesce'> {
  /** The namespace the reconciler owns for its leases (LIGHTKEEPER_LEASE_NAMESPACE, lib/config/leaseSettings.ts). */
  namespace: string;
  /**
   * Whether this request may be coalesced into the track's waiter. Default: only a request for the
   * head. A pinned commit (a replay) is a different request: it is never coalesced and never takes
   * the waiter slot (it would not reconcile the head others rely on); it waits its own turn.
   */
  coalesce?: boolean;
  /** Called once the lease is ours, before the reconcile starts (the CLI releases it on Ctrl-C). */
  onAcquired?: (lease: TrackLease) => void;
  /**
   * Asked once the lease is ours, of the track read then (the run then reads it no more): a reason
   * means the request was served already, and nothing runs.
   */
  alreadyServed?: (track: TrackObject) => string | undefined;
}

/**
 * One reconcile of one track under the track's lease, stopping (`Aborted`) if the lease is lost
 * before prune or status; or `coalesced` without running when another invocation already waits.
 */
export async function reconcileUnderLease(
  deps: ReconcileDeps,
  request: ReconcileRequest,
  options: LeasedReconcileOptions,
): Promise<ReconcileSummary | CoalescedReconcile | ServedReconcile> {
  const { namespace, onAcquired, alreadyServed, ...leaseOptions } = options;
  // Renewals and checks are counted apart: a no-op reconcile stays at zero object writes.
  const target = leaseTarget(request.track, namespace);
  const leaseClient = deps.client.countedApart();
  const out = await withTrackLease(
    leaseClient,
    target,
    { ...leaseOptions, coalesce: options.coalesce ?? request.commit === undefined },
    async (lease): Promise<ReconcileSummary | ServedReconcile> => {
      onAcquired?.(lease);
      const track = alreadyServed ? await loadTrack(deps.client, request.track) : undefined;
      const served = track && alreadyServed?.(track);
      if (served !== undefined) return { outcome: 'served', track: request.track, reason: served };
      // A health wait stops as soon as another invocation waits for this track (its newer commit).
      const newerRunQueued = () => waiterQueued(leaseClient, target);
      // The digest key lives beside the leases, in the namespace the reconciler owns.
      const keyNamespace = deps.keyNamespace ?? namespace;
      const guard = () => lease.assertHeld();
      return reconcile({ ...deps, keyNamespace, guard, newerRunQueued }, request, track);
    },
  );
  return isCoalesced(out) ? { ...out, track: request.track } : out;
}
