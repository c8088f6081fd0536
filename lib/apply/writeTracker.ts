import { isConflict, isNotFound } from '../errors';
import { resourcePath } from '../kube/paths';
import { fieldManager, fieldValidation, serverSideApply } from '../kube/serverSideApply';
import type { PlannedObject } from '../plan/plannedObject';
import type { LiveTracker } from '../tracker/liveTracker';
import { trackerBody } from '../tracker/trackerBody';
import { type ApplyContext, trackerSubject, trackerTarget } from './applyContext';
import { refuseOtherTrack } from './ownershipConflict';
import { type RecordAtCreate, recordAtCreate } from './recordApply';

/** Server-side applies the tracking object (one this track controls); answers its UID. */
export async function applyTracker(
  ctx: ApplyContext,
  p: PlannedObject,
  live: LiveTracker | undefined,
): Promise<string> {
  const { object } = await serverSideApply<{ metadata: { uid: string } }>(
    ctx.client,
    trackerTarget(p),
    trackerBody(p, ctx.track, ctx.commit, live),
    { subject: trackerSubject(p) },
  );
  return object.metadata.uid;
}

/**
 * A tracking object this track does not know yet is created, not applied: with one field manager
 * for every track, an apply would silently take over another track's tracking object (and with it
 * the child). An existing one is only adopted when this track already controls it. `created` is
 * set when this call created it; `recorded`, when the create carried the record of the apply to
 * come and the server kept it (lib/apply/recordApply.ts).
 */
export async function createTracker(
  ctx: ApplyContext,
  p: PlannedObject,
): Promise<{ uid: string; recorded?: RecordAtCreate; created?: string }> {
  const target = trackerTarget(p);
  const record = recordAtCreate(ctx, p);
  try {
    const created = await ctx.client.request<{
      metadata: { uid: string };
      status?: { lastAppliedDigest?: string };
    }>('POST', resourcePath({ ...target, name: undefined }), {
      body: {
        ...trackerBody(p, ctx.track, ctx.commit, undefined),
        ...(record ? { status: record.status } : {}),
      },
      query: { fieldManager, fieldValidation },
      subject: trackerSubject(p),
    });
    // Only a status the server kept is a record.
    const kept = record && created.status?.lastAppliedDigest === p.digest;
    if (kept) ctx.written.wrote(p, record.status.conditions);
    return {
      uid: created.metadata.uid,
      created: created.metadata.uid,
      ...(kept ? { recorded: record } : {}),
    };
  } catch (e) {
    if (!isConflict(e)) throw e;
  }
  const existing = await ctx.client.get<LiveTracker>(resourcePath(target));
  refuseOtherTrack(ctx.track, p, existing, { allowUncontrolled: false });
  return { uid: await applyTracker(ctx, p, existing) };
}

/**
 * Deletes a tracking object this apply created for a child that was not applied, so none stands
 * for a child that never was (nor holds its name against another track). Orphan propagation: had
 * the server applied the child after all (an answer lost), the collector releases it rather than
 * deleting it. Answers whether it is gone.
 */
export async function removeTracker(ctx: ApplyContext, p: PlannedObject, uid: string): Promise<boolean> {
  try {
    await ctx.client.request('DELETE', resourcePath(trackerTarget(p)), {
      body: { preconditions: { uid }, propagationPolicy: 'Orphan' },
      subject: trackerSubject(p),
    });
    ctx.written.forget(p);
    return true;
  } catch (e) {
    return isNotFound(e);
  }
}
