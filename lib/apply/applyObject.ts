import {
  ApplyError,
  hasCode,
  ImmutableFieldError,
  isConflict,
  isLightkeeperError,
  isNotFound,
  OwnershipError,
} from '../errors';
import type { ObjectCondition } from '../health/fields';
import { healthAtCreate, healthyAtApply } from '../health/healthAtApply';
import { sameHealth } from '../health/healthVerdict';
import type { TrackIdentity } from '../identity/trackIdentity';
import { ignoringApply } from '../ignore/ignoringApply';
import { isImmutableFieldError, isOtherControllerError } from '../kube/apiErrors';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import { fieldManager, serverSideApply } from '../kube/serverSideApply';
import {
  childOwnerReferences,
  hasExpectedReferences,
  isProtectedChild,
  refuseOtherController,
} from '../ownership/childOwnership';
import type { TrackOwner } from '../ownership/ownershipTable';
import { updateStrategyAnnotation } from '../track/metadataKeys';
import type { Change } from './change';
import { appliedFieldsDigest } from './fieldsDigest';
import { type LiveObject, type LiveTracker, trackerKey } from './liveState';
import { ownsManifestFields } from './ownsManifestFields';
import { patchTrackerStatus, type TrackerStatusModes } from './patchTrackerStatus';
import type { PlannedObject } from './plannedObject';
import { recreateChild } from './recreateChild';
import { refuseUndeletable, refuseUnwritable } from './refuseChildAccess';
import {
  appliedConditions,
  childBody,
  inSyncCondition,
  otherConditions,
  trackerBody,
  trackerUpToDate,
} from './trackerBodies';
import type { WrittenConditions } from './writtenConditions';

export interface ApplyContext {
  /** Writes tracking objects. */
  client: KubeClient;
  /** Reads and writes children: the track's identity (lib/identity), never more. */
  childClient: KubeClient;
  /** Who `childClient` acts as. */
  identity: TrackIdentity;
  track: TrackOwner;
  commit: string;
  trackers: ReadonlyMap<string, LiveTracker>;
  children: ReadonlyMap<string, LiveObject>;
  recreateTimeoutMs: number;
  /** How the server takes each tracking-object kind's status (lib/apply/patchTrackerStatus.ts). */
  statusModes: TrackerStatusModes;
  /** Receives every status this apply writes on a tracking object (for the health step). */
  written: WrittenConditions;
}

const childPath = (p: PlannedObject) =>
  resourcePath({ ...p.resource, namespace: p.decision.namespace, name: p.manifest.ref.name });

/**
 * True when neither git nor the cluster changed since the last apply: nothing to write. The child's
 * references must be the ones it would be applied with now, so a change of protection (deletion
 * policy, annotation) re-applies once.
 */
function inSync(
  p: PlannedObject,
  tracker: LiveTracker | undefined,
  child: LiveObject | undefined,
  ctx: ApplyContext,
  protectedChild: boolean,
) {
  if (!tracker || !child || !trackerUpToDate(p, ctx.track, tracker)) return false;
  if (tracker.status?.lastAppliedDigest !== p.digest) return false;
  const references = (protectedNow: boolean) =>
    hasExpectedReferences(child.metadata.ownerReferences, tracker.metadata.uid, protectedNow);
  // Never does not change an existing child, its owner reference included: either state is kept.
  if (p.updateStrategy === 'Never') return references(protectedChild) || references(!protectedChild);
  if (!references(protectedChild)) return false;
  return fieldsKept(child, tracker, p);
}

/**
 * Our fields on the child are as our last apply left them: the field set the server answered
 * with, as recorded, or, for a tracking object that recorded its apply when it was created
 * (before that answer), every field of the manifest still ours.
 */
function fieldsKept(child: LiveObject, tracker: LiveTracker, p: PlannedObject): boolean {
  const recorded = tracker.status?.lastAppliedFieldsDigest;
  return recorded === undefined ? ownsManifestFields(child, p) : appliedFieldsDigest(child, p) === recorded;
}

/** Someone else's tracking object or child: reported per object, never taken over. */
const isOwnershipConflict = (e: unknown) => hasCode(e, 'OwnershipError') || isOtherControllerError(e);

/**
 * Applies one object: its tracking object first (controlled by the track), then the child
 * (controlled by the tracking object unless protected), then the tracking object's status. Returns
 * what happened; failures are returned as `failed` changes naming the object, and objects someone
 * else owns as `conflict` changes, never thrown.
 */
export async function applyObject(ctx: ApplyContext, p: PlannedObject): Promise<Change> {
  const tracker = ctx.trackers.get(
    trackerKey(p.decision.tracker, p.decision.namespace, p.decision.trackerName),
  );
  const live = ctx.children.get(p.key);
  const protectedChild = isProtectedChild(ctx.track, p.manifest.object);
  if (inSync(p, tracker, live, ctx, protectedChild)) return { subject: p.subject, action: 'unchanged' };
  // Drift is a change made in the cluster: the child gone, or fields of our last apply changed. A
  // change of protection only (its owner reference to add or drop) is not.
  const drifted =
    tracker?.spec.digest === p.digest &&
    tracker.status?.lastAppliedDigest === p.digest &&
    (!live || !fieldsKept(live, tracker, p));

  // Set once the tracking object is known to be this track's: only then does it get our status.
  let trackerUid: string | undefined;
  // The status a new tracking object was created with, when the server took it.
  let recorded: RecordAtCreate | undefined;
  // A tracking object this apply created: removed again if its child is not applied.
  let createdTracker: string | undefined;
  let childApplied = false;
  try {
    if (!tracker) {
      // The tenant's rights are asked before a tracking object exists for the child.
      await refuseUnwritable(ctx.childClient, ctx.identity, p);
      if (!protectedChild) await refuseUndeletable(ctx.childClient, ctx.identity, p);
      ({ uid: trackerUid, recorded, created: createdTracker } = await createTracker(ctx, p));
    } else {
      // Labelled with our UID, yet controlled by another track: not ours to update.
      refuseOtherTrack(ctx, p, tracker, { allowUncontrolled: true });
      trackerUid = tracker.metadata.uid;
      if (!trackerUpToDate(p, ctx.track, tracker)) trackerUid = await applyTracker(ctx, p, tracker);
    }
    const uid = trackerUid as string;
    const { object, created } = await applyChild(ctx, p, uid, live, protectedChild, !tracker);
    childApplied = true;
    // A `Never` child left as it was is known by its metadata only: its health is the health step's.
    const answered = created || p.updateStrategy !== 'Never';
    // Created with the record of this apply: written again only when the answer says otherwise.
    if (!recorded || !sameHealth(recorded.healthy, healthAtCreate(object))) {
      const healthy = answered ? healthyAtApply(object, tracker?.status?.conditions) : undefined;
      await writeTrackerStatus(ctx, p, {
        lastAppliedDigest: p.digest,
        lastAppliedCommit: ctx.commit,
        lastAppliedFieldsDigest: appliedFieldsDigest(object, p),
        conditions: appliedConditions(ctx.commit, tracker, healthy),
      });
    }
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
      ...(drifted
        ? { drifted: true, message: live ? 'changed in the cluster' : 'deleted from the cluster' }
        : {}),
    };
  } catch (e) {
    const message = describe(e, p);
    const conflict = isOwnershipConflict(e);
    // A conflict keeps its tracking object: it shows (tree, InSync) whose the child is.
    if (createdTracker && !childApplied && !conflict && (await removeTracker(ctx, p, createdTracker))) {
      return { subject: p.subject, action: 'failed', message };
    }
    if (trackerUid) {
      await writeTrackerStatus(ctx, p, {
        // What the create recorded did not happen.
        ...(recorded ? { lastAppliedDigest: null, lastAppliedCommit: null } : {}),
        conditions: [
          inSyncCondition(
            'False',
            conflict ? 'OwnershipConflict' : 'ApplyFailed',
            message.slice(0, 4000),
            tracker,
          ),
          ...otherConditions(tracker),
        ],
      }).catch(() => {});
    }
    return { subject: p.subject, action: conflict ? 'conflict' : 'failed', message };
  }
}

const trackerTarget = (p: PlannedObject) => ({
  ...lightkeeperResources[p.decision.tracker],
  namespace: p.decision.namespace,
  name: p.decision.trackerName,
});
const trackerSubject = (p: PlannedObject) =>
  `${p.decision.tracker}/${p.decision.trackerName} for ${p.subject}`;

async function applyTracker(
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

/** What a tracking object created together with its child records of the apply to come. */
interface RecordAtCreate {
  status: {
    conditions: NonNullable<NonNullable<LiveTracker['status']>['conditions']>;
    [field: string]: unknown;
  };
  /** The `Healthy` condition judged from the manifest (lib/health/healthAtApply.ts healthAtCreate). */
  healthy: ObjectCondition | undefined;
}

/**
 * The status of a new tracking object, sent with its create where the server takes it there: the
 * apply that follows at once, as its status write would record it, so a new object costs two
 * requests (the create and the child's apply), not three. If the apply fails, the next request
 * says so; if the server's answer settles health otherwise than the manifest did, it is written.
 * The field set the server answers with is not known yet: the in-sync check then compares the
 * manifest with the child's managed fields (lib/apply/ownsManifestFields.ts).
 */
function recordAtCreate(ctx: ApplyContext, p: PlannedObject): RecordAtCreate | undefined {
  // A `Never` child may exist already and then is not applied: the 3-request path says so.
  if (ctx.statusModes[p.decision.tracker] !== 'object' || p.updateStrategy === 'Never') return undefined;
  const healthy = healthAtCreate(p.manifest.object);
  return {
    status: {
      lastAppliedDigest: p.digest,
      lastAppliedCommit: ctx.commit,
      conditions: appliedConditions(ctx.commit, undefined, healthy),
    },
    healthy,
  };
}

/**
 * A tracking object this track does not know yet is created, not applied: with one field manager
 * for every track, an apply would silently take over another track's tracking object (and with it
 * the child). An existing one is only adopted when this track already controls it.
 */
async function createTracker(
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
      query: { fieldManager },
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
  refuseOtherTrack(ctx, p, existing, { allowUncontrolled: false });
  return { uid: await applyTracker(ctx, p, existing) };
}

/**
 * A tracking object controlled by another track is a conflict. One without a controller is
 * adopted only when it already carries our label (it was ours; someone removed the reference).
 */
function refuseOtherTrack(
  ctx: ApplyContext,
  p: PlannedObject,
  existing: LiveTracker,
  { allowUncontrolled }: { allowUncontrolled: boolean },
): void {
  const controller = existing.metadata.ownerReferences?.find((o) => o.controller);
  if (controller ? controller.uid === ctx.track.uid : allowUncontrolled) return;
  throw new OwnershipError(
    `${p.subject} is already tracked by ${controller ? `${controller.kind} ${controller.name}` : `${p.decision.tracker} ${p.decision.trackerName}`}; not taking it over`,
    { subject: p.subject },
  );
}

async function applyChild(
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
  const apply = ignoringApply(ctx.childClient, path, p, current, (q) =>
    serverSideApply<LiveObject>(ctx.childClient, target, childBody(q, ctx.track, references), {
      subject: p.subject,
    }),
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

/**
 * Deletes a tracking object this apply created for a child that was not applied, so none stands
 * for a child that never was (nor holds its name against another track). Orphan propagation: had
 * the server applied the child after all (an answer lost), the collector releases it rather than
 * deleting it. Answers whether it is gone.
 */
async function removeTracker(ctx: ApplyContext, p: PlannedObject, uid: string): Promise<boolean> {
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

async function writeTrackerStatus(
  ctx: ApplyContext,
  p: PlannedObject,
  status: { conditions: NonNullable<LiveTracker['status']>['conditions']; [field: string]: unknown },
) {
  try {
    await patchTrackerStatus(ctx.client, p, status, ctx.statusModes);
  } catch (e) {
    ctx.written.failed();
    throw e;
  }
  if (status.conditions) ctx.written.wrote(p, status.conditions);
}

function describe(e: unknown, p: PlannedObject): string {
  const where = `${p.manifest.source.path}:${p.manifest.source.line}`;
  if (isOtherControllerError(e)) {
    return `${where}: ${p.subject}: child is owned by another controller; not taking it over`;
  }
  if (isImmutableFieldError(e)) {
    return new ImmutableFieldError(
      `${where}: ${p.subject}: ${(e as Error).message} (annotate it ${updateStrategyAnnotation}: Recreate to replace it)`,
      { subject: p.subject, cause: e },
    ).message;
  }
  if (isNotFound(e)) return `${where}: ${p.subject}: ${(e as Error).message}`;
  if (isLightkeeperError(e)) return `${where}: ${e.message}`;
  return new ApplyError(`${where}: ${p.subject}: ${String(e)}`, { subject: p.subject, cause: e }).message;
}
