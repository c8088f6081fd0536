import { isImmutableFieldError } from '../kube/apiErrors';
import { serverSideApply } from '../kube/serverSideApply';
import { childOwnerReferences, isProtectedChild } from '../ownership/childOwnership';
import type { PlannedObject } from '../plan/plannedObject';
import { trackerKey } from '../tracker/liveTracker';
import { type ApplyContext, childPath } from './applyContext';
import type { Change } from './change';
import { childBody } from './childBody';
import { describeApplyError } from './describeApplyError';
import { ignoringApply } from './ignoringApply';
import type { LiveObject } from './liveChildren';
import { isOwnershipConflict, refuseOtherTrack } from './ownershipConflict';
import { recordFailure } from './recordApply';
import { refuseUndeletable, refuseUnwritable } from './refuseChildAccess';

/**
 * Stands in for the UID of a tracking object not created yet: the server checks an owner
 * reference's form, not that its owner exists, and a dry-run persists nothing.
 */
const trackerToCreate = '00000000-0000-0000-0000-000000000000';

/**
 * Asks the API server whether it would take the child's apply, without writing anything: the
 * rights a new child's apply asks first (lib/apply/refuseChildAccess.ts), then the very request
 * writeChild sends (same identity, field manager, force, owner references, ignored fields) with
 * `dryRun=All`, so schema, validation, admission and RBAC all answer. Answers the refusal as a
 * `failed` change naming file, object and reason; undefined when the server would take it, or
 * when the apply will not write it anyway: a `Never` child that exists, or an ownership conflict
 * (reported per object by the apply, never taken over). A `Recreate` child refused for an
 * immutable field passes: its apply replaces it. A refused child that has a tracking object gets the
 * refusal on it (InSync False), as a failed apply would.
 */
export async function dryRunChild(ctx: ApplyContext, p: PlannedObject): Promise<Change | undefined> {
  const tracker = ctx.trackers.get(
    trackerKey(p.decision.tracker, p.decision.namespace, p.decision.trackerName),
  );
  const live = ctx.children.get(p.key);
  const protectedChild = isProtectedChild(ctx.track, p.manifest.object);
  const path = childPath(p);
  try {
    if (tracker) refuseOtherTrack(ctx.track, p, tracker, { allowUncontrolled: true });
    else {
      await refuseUnwritable(ctx.childClient, ctx.identity, p);
      if (!protectedChild) await refuseUndeletable(ctx.childClient, ctx.identity, p);
    }
    if (p.updateStrategy === 'Never' && (live ?? (await ctx.childClient.find<LiveObject>(path)))) return;
    const uid = tracker?.metadata.uid ?? trackerToCreate;
    const references = childOwnerReferences(p.decision, uid, p.subject, protectedChild);
    const target = { ...p.resource, namespace: p.decision.namespace, name: p.manifest.ref.name };
    await ignoringApply(
      ctx.childClient,
      path,
      p,
      live,
      (q) =>
        serverSideApply(ctx.childClient, target, childBody(q, ctx.track, references), {
          subject: p.subject,
          dryRun: true,
        }),
      ctx.read,
    )();
    return;
  } catch (e) {
    if (isOwnershipConflict(e)) return;
    if (isImmutableFieldError(e) && p.updateStrategy === 'Recreate') return;
    const message = describeApplyError(e, p);
    // A child applied before keeps its tracking object, which says why this commit's apply was refused.
    if (tracker) await recordFailure(ctx, p, tracker, undefined, { conflict: false, message });
    return { subject: p.subject, action: 'failed', message };
  }
}
