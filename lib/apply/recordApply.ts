import type { ObjectCondition } from '../kstatus/fields';
import { sameHealth } from '../kstatus/healthVerdict';
import type { PlannedObject } from '../plan/plannedObject';
import { healthAtCreate, healthyAtApply } from '../tracker/healthyCondition';
import type { LiveTracker } from '../tracker/liveTracker';
import { patchTrackerStatus } from '../tracker/patchTrackerStatus';
import { appliedConditions, inSyncCondition, otherConditions } from '../tracker/trackerConditions';
import type { ApplyContext } from './applyContext';
import { appliedFieldsDigest } from './fieldsDigest';
import type { LiveObject } from './liveChildren';

type Conditions = NonNullable<NonNullable<LiveTracker['status']>['conditions']>;

/** What a tracking object created together with its child records of the apply to come. */
export interface RecordAtCreate {
  status: { conditions: Conditions; [field: string]: unknown };
  /** The `Healthy` condition judged from the manifest (lib/tracker/healthyCondition.ts healthAtCreate). */
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
export function recordAtCreate(
  ctx: Pick<ApplyContext, 'statusModes' | 'commit'>,
  p: PlannedObject,
): RecordAtCreate | undefined {
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
 * Records a successful apply of the child on its tracking object, unless the create recorded it
 * already and the server's answer judges health as the manifest did (the second of two writes).
 * `answered`: `object` is the server's answer to an apply, so its health can be judged now.
 */
export async function recordApplied(
  ctx: ApplyContext,
  p: PlannedObject,
  tracker: LiveTracker | undefined,
  recorded: RecordAtCreate | undefined,
  { object, answered }: { object: LiveObject; answered: boolean },
): Promise<void> {
  if (recorded && sameHealth(recorded.healthy, healthAtCreate(object))) return;
  const healthy = answered ? healthyAtApply(object, tracker?.status?.conditions) : undefined;
  await writeTrackerStatus(ctx, p, {
    lastAppliedDigest: p.digest,
    lastAppliedCommit: ctx.commit,
    lastAppliedFieldsDigest: appliedFieldsDigest(object, p),
    conditions: appliedConditions(ctx.commit, tracker, healthy),
  });
}

/**
 * Records a failed apply (or an ownership conflict) on a tracking object known to be ours. What a
 * create recorded did not happen, so it is taken back. Never throws: the failure is the news.
 */
export async function recordFailure(
  ctx: ApplyContext,
  p: PlannedObject,
  tracker: LiveTracker | undefined,
  recorded: RecordAtCreate | undefined,
  { conflict, message }: { conflict: boolean; message: string },
): Promise<void> {
  await writeTrackerStatus(ctx, p, {
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

/** Patches a tracking object's status and tells `ctx.written` (an unknown outcome makes it unsure). */
async function writeTrackerStatus(
  ctx: ApplyContext,
  p: PlannedObject,
  status: { conditions: Conditions; [field: string]: unknown },
): Promise<void> {
  try {
    await patchTrackerStatus(ctx.client, p, status, ctx.statusModes);
  } catch (e) {
    ctx.written.failed();
    throw e;
  }
  ctx.written.wrote(p, status.conditions);
}
