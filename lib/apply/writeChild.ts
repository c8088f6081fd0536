import { isImmutableFieldError } from '../kube/apiErrors';
import { serverSideApply } from '../kube/serverSideApply';
import { childOwnerReferences, refuseOtherController } from '../ownership/childOwnership';
import type { PlannedObject } from '../plan/plannedObject';
import { type ApplyContext, childPath } from './applyContext';
import { childBody } from './childBody';
import { ignoringApply } from './ignoringApply';
import type { LiveObject } from './liveChildren';
import { recreateChild } from './recreateChild';
import { refuseUndeletable } from './refuseChildAccess';

/**
 * Applies the child under its tracking object `trackerUid`: as the track's identity, with the
 * owner references the ownership table chose (none for a protected child), ignored fields left
 * out (lib/apply/ignoringApply.ts), and replaced when `Recreate` meets an immutable field. A
 * `Never` child that exists is left as it is. `created` tells whether the server created it.
 */
export async function writeChild(
  ctx: ApplyContext,
  p: PlannedObject,
  trackerUid: string,
  live: LiveObject | undefined,
  protectedChild: boolean,
  /** The identity's right to delete was asked before the tracking object was created. */
  deleteChecked: boolean,
): Promise<{ object: LiveObject; created: boolean }> {
  const path = childPath(p);
  // Never must know beforehand whether the child exists; a protected child, whether another
  // controller holds it (the server refuses a second controller reference, not a missing one).
  const current =
    live ??
    (p.updateStrategy === 'Never' || protectedChild
      ? await ctx.childClient.find<LiveObject>(path)
      : undefined);
  if (p.updateStrategy === 'Never' && current) return { object: current, created: false };
  if (protectedChild) refuseOtherController(current, trackerUid, p.subject);
  // A protected child gets no owner reference, so no collector deletion can reach it: only its
  // first controller reference from us (created, adopted, or protection dropped) is worth asking.
  else if (!deleteChecked && !isControlledBy(current, trackerUid))
    await refuseUndeletable(ctx.childClient, ctx.identity, p);
  const references = childOwnerReferences(p.decision, trackerUid, p.subject, protectedChild);
  const target = { ...p.resource, namespace: p.decision.namespace, name: p.manifest.ref.name };
  const apply = ignoringApply(
    ctx.childClient,
    path,
    p,
    current,
    (q) =>
      serverSideApply<LiveObject>(ctx.childClient, target, childBody(q, ctx.track, references), {
        subject: p.subject,
      }),
    ctx.read,
  );
  try {
    return await apply();
  } catch (e) {
    if (!isImmutableFieldError(e) || p.updateStrategy !== 'Recreate') throw e;
    const recreate = {
      childClient: ctx.childClient,
      path,
      subject: p.subject,
      trackerUid,
      trackUid: ctx.track.uid,
      timeoutMs: ctx.recreateTimeoutMs,
    };
    return recreateChild(recreate, e, apply);
  }
}

const isControlledBy = (live: LiveObject | undefined, trackerUid: string) =>
  live?.metadata.ownerReferences?.find((o) => o.controller)?.uid === trackerUid;
