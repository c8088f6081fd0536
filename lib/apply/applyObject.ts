import { updateStrategyAnnotation } from '../manifests/metadataKeys';
import { isProtectedChild } from '../ownership/childOwnership';
import type { PlannedObject } from '../plan/plannedObject';
import { trackerKey } from '../tracker/liveTracker';
import { trackerUpToDate } from '../tracker/trackerBody';
import type { ApplyContext } from './applyContext';
import type { Change } from './change';
import { describeApplyError } from './describeApplyError';
import { drifted, inSync } from './inSync';
import { isOwnershipConflict, refuseOtherTrack } from './ownershipConflict';
import { type RecordAtCreate, recordApplied, recordFailure } from './recordApply';
import { refuseUndeletable, refuseUnwritable } from './refuseChildAccess';
import { writeChild } from './writeChild';
import { applyTracker, createTracker, removeTracker } from './writeTracker';

export type { ApplyContext } from './applyContext';

/**
 * Applies one object: its tracking object first (controlled by the track), then the child
 * (controlled by the tracking object unless protected), then the tracking object's status. A new
 * object costs two writes: the tracking object is created with the record of the apply to come
 * (lib/apply/recordApply.ts), then the child is applied. Returns what happened; failures are
 * returned as `failed` changes naming the object, and objects someone else owns as `conflict`
 * changes, never thrown.
 */
export async function applyObject(ctx: ApplyContext, p: PlannedObject): Promise<Change> {
  const tracker = ctx.trackers.get(
    trackerKey(p.decision.tracker, p.decision.namespace, p.decision.trackerName),
  );
  const live = ctx.children.get(p.key);
  const protectedChild = isProtectedChild(ctx.track, p.manifest.object);
  if (inSync(p, tracker, live, ctx.track, protectedChild)) return { subject: p.subject, action: 'unchanged' };
  const drift = drifted(p, tracker, live);

  // Set once the tracking object is known to be this track's: only then does it get our status.
  let trackerUid: string | undefined;
  // The status a new tracking object was created with, when the server took it.
  let recorded: RecordAtCreate | undefined;
  // A tracking object this apply created: removed again if its child is not applied.
  let createdTracker: string | undefined;
  let childApplied = false;
  try {
    if (!tracker) {
      // The tenant's rights are asked before a tracking object exists for the child (by the dry-run, if any).
      if (!ctx.validated?.has(p.key)) {
        await refuseUnwritable(ctx.childClient, ctx.identity, p);
        if (!protectedChild) await refuseUndeletable(ctx.childClient, ctx.identity, p);
      }
      ({ uid: trackerUid, recorded, created: createdTracker } = await createTracker(ctx, p));
    } else {
      // Labelled with our UID, yet controlled by another track: not ours to update.
      refuseOtherTrack(ctx.track, p, tracker, { allowUncontrolled: true });
      trackerUid = tracker.metadata.uid;
      if (!trackerUpToDate(p, ctx.track, tracker)) trackerUid = await applyTracker(ctx, p, tracker);
    }
    const { object, created } = await writeChild(ctx, p, trackerUid, live, protectedChild, !tracker);
    childApplied = true;
    // A `Never` child left as it was is known by its metadata only: its health is the health step's.
    const answered = created || p.updateStrategy !== 'Never';
    await recordApplied(ctx, p, tracker, recorded, { object, answered });
    return appliedChange(p, { created, drift, live: !!live });
  } catch (e) {
    const message = describeApplyError(e, p);
    const conflict = isOwnershipConflict(e);
    // A conflict keeps its tracking object: it shows (tree, InSync) whose the child is.
    if (createdTracker && !childApplied && !conflict && (await removeTracker(ctx, p, createdTracker))) {
      return { subject: p.subject, action: 'failed', message };
    }
    if (trackerUid) await recordFailure(ctx, p, tracker, recorded, { conflict, message });
    return { subject: p.subject, action: conflict ? 'conflict' : 'failed', message };
  }
}

/** The change an apply that went through made. */
function appliedChange(
  p: PlannedObject,
  { created, drift, live }: { created: boolean; drift: boolean; live: boolean },
): Change {
  if (p.updateStrategy === 'Never' && !created) {
    return {
      subject: p.subject,
      action: 'skipped',
      message: `${updateStrategyAnnotation}: Never; it exists`,
    };
  }
  return {
    subject: p.subject,
    action: created ? 'created' : 'configured',
    ...(drift
      ? { drifted: true, message: live ? 'changed in the cluster' : 'deleted from the cluster' }
      : {}),
  };
}
