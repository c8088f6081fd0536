import { hasCode, OwnershipError } from '../errors';
import { isOtherControllerError } from '../kube/apiErrors';
import type { TrackOwner } from '../ownership/ownershipTable';
import type { PlannedObject } from '../plan/plannedObject';
import type { LiveTracker } from '../tracker/liveTracker';

/** Someone else's tracking object or child: reported per object, never taken over. */
export const isOwnershipConflict = (e: unknown) => hasCode(e, 'OwnershipError') || isOtherControllerError(e);

/**
 * A tracking object controlled by another track is a conflict. One without a controller is
 * adopted only when `allowUncontrolled` (it carries our label: it was ours; someone removed the
 * reference).
 */
export function refuseOtherTrack(
  track: TrackOwner,
  p: PlannedObject,
  existing: LiveTracker,
  { allowUncontrolled }: { allowUncontrolled: boolean },
): void {
  const controller = existing.metadata.ownerReferences?.find((o) => o.controller);
  if (controller ? controller.uid === track.uid : allowUncontrolled) return;
  throw new OwnershipError(
    `${p.subject} is already tracked by ${controller ? `${controller.kind} ${controller.name}` : `${p.decision.tracker} ${p.decision.trackerName}`}; not taking it over`,
    { subject: p.subject },
  );
}
