import { getChildren } from '../apply/getChildren';
import { isLeaseLost, isLightkeeperError, ManifestError } from '../errors';
import { getHealthTargets } from '../health/getHealthTargets';
import type { Manifest } from '../manifests';
import { trackOwner } from '../ownership/trackOwner';
import type { PlannedObject } from '../plan/plannedObject';
import { defaultConcurrency } from '../settings/defaults';
import { type LiveTracker, listTrackers, trackerKey } from '../tracker/liveTracker';
import { trackerStatusModes } from '../tracker/patchTrackerStatus';
import { applyCommit, type PhaseContext } from './applyPhase';
import { getTrackers } from './changedTrackers';
import type { PendingClusterState } from './clusterState';
import { assessHealth } from './healthPhase';
import {
  applyFailures,
  type IncrementalRead,
  isContinuing,
  type RunOutcomes,
  runChanges,
  type SourceOutcome,
} from './outcomes';
import { planCommit } from './planPhase';
import { pruneStale } from './prunePhase';

type IncrementalSource = Extract<SourceOutcome, { state: 'read' }> & { incremental: IncrementalRead };

/**
 * plan → apply → prune of the files a push changed (the gate allowed it: lib/reconcile/incrementalGate.ts).
 * Reads from the cluster only what those files name: the tracking objects of what they hold now and
 * held at the last applied commit (a GET each), and the children to apply (getChildren). An object
 * whose tracking object says an unchanged file of the commit defines it too is a duplicate: the
 * commit does not parse, as a whole run finds. Prunes only after an error-free apply, and only the
 * tracking objects of what the changed and deleted files held that the commit no longer has.
 * The health of the changed objects is judged (for the push's commit status), not the track's.
 */
export async function incrementalPhases(
  ctx: PhaseContext,
  outcomes: RunOutcomes,
  read: IncrementalSource,
  clusterState: PendingClusterState,
): Promise<void> {
  const { deps, track } = ctx;
  const changed = read.incremental;
  const owner = trackOwner(track);
  const concurrency = deps.concurrency ?? defaultConcurrency;
  let statusModes: ReturnType<typeof trackerStatusModes> | undefined;
  try {
    const base = await clusterState.base();
    outcomes.writes.status += base.keyWrites;
    statusModes = trackerStatusModes(base.discovery);
    const planning = { ...base, trackers: new Map<string, LiveTracker>() };
    const plan = planCommit(read.manifests, track, deps.config, planning);
    const before = planCommit(changed.before, track, deps.config, planning);
    // An object the changed files held that cannot be planned now (its type no longer served) has no
    // tracking object's name: every one is listed, so prune finds it (and keeps it, `unavailable`).
    const trackers =
      before.failed.length > 0
        ? await listTrackers(deps.client, owner)
        : await getTrackers(deps.client, owner, [...plan.planned, ...before.planned], concurrency);
    const duplicates = await duplicatesOfUnchanged(plan.planned, trackers, changed, track.spec.subPath ?? '');
    if (duplicates.length > 0) {
      read.errors.push(...duplicates);
      return;
    }
    const counted = { planned: before.planned.length + before.failed.length, ignored: before.ignored.length };
    const previous = track.status?.objectsPlanned ?? 0;
    const planned = previous - counted.planned + plan.planned.length + plan.failed.length;
    outcomes.incremental = {
      from: changed.from,
      paths: changed.paths,
      before: { discovered: changed.before.length, ...counted },
      planned,
    };
    outcomes.plan = plan;
    const cluster = { ...base, trackers };
    const readChildren = (
      client: Parameters<typeof getChildren>[0],
      t: typeof owner,
      p: readonly PlannedObject[],
    ) => getChildren(client, t, p, concurrency);
    const applied = await applyCommit(ctx, plan, cluster, read.commit, statusModes, true, {
      readChildren,
    });
    outcomes.apply = applied.outcome;
    outcomes.writes.objects += applied.writes;
    if (isContinuing(outcomes)) return;
    const errors = applyFailures(outcomes).length;
    const paths = new Set(changed.paths);
    const pruned = await pruneStale(ctx, plan, read.manifests, cluster, errors, {
      only: (t) => paths.has(t.spec.source.path),
      planned,
    });
    outcomes.prune = pruned.outcome;
    outcomes.writes.objects += pruned.writes;
  } catch (e) {
    if (isLeaseLost(e)) {
      outcomes.leaseLost = e.message;
      return;
    }
    if (!isLightkeeperError(e)) throw e;
    outcomes.applyError = e.message;
  }
  // The health of the changed objects (a GET each): for the push's commit status and their tracking
  // objects; the track's own Healthy condition is the whole runs' (lib/reconcile/conclude.ts).
  if (!outcomes.plan || !statusModes) return;
  ctx.progress('health');
  const trackerConditions = outcomes.apply?.trackerConditions;
  const health = await assessHealth(
    ctx,
    outcomes.plan,
    runChanges(outcomes),
    { statusModes, trackerConditions },
    { readTargets: getHealthTargets },
  );
  outcomes.health = health.outcome;
  outcomes.writes.health += health.writes;
}

/**
 * Objects of the changed files that an unchanged file of the commit (under subPath) defines too,
 * as their tracking objects' source paths say and that file, read, confirms: the duplicate errors
 * a whole read of the commit gives (lib/manifests/findDuplicates.ts).
 */
async function duplicatesOfUnchanged(
  planned: readonly PlannedObject[],
  trackers: ReadonlyMap<string, LiveTracker>,
  changed: IncrementalRead,
  subPath: string,
): Promise<string[]> {
  const paths = new Set(changed.paths);
  const under = subPath.replace(/^\/+|\/+$/g, '');
  const errors: string[] = [];
  for (const p of planned) {
    const d = p.decision;
    const path = trackers.get(trackerKey(d.tracker, d.namespace, d.trackerName))?.spec.source.path;
    if (path === undefined || paths.has(path) || (under !== '' && !path.startsWith(`${under}/`))) continue;
    const there = await changed.fileAt(path);
    if (!there?.some((m) => sameObject(m, p.manifest))) continue;
    const { line } = p.manifest.source;
    errors.push(
      new ManifestError(`the same object is also defined at ${path}; each object may be defined only once`, {
        path: p.manifest.source.path,
        ...(line === undefined ? {} : { line }),
        object: p.subject,
      }).message,
    );
  }
  return errors;
}

/** The same object, a namespace left out in git counting as the one the plan defaulted. */
const sameObject = (m: Manifest, planned: Manifest) =>
  m.ref.group === planned.ref.group &&
  m.ref.kind === planned.ref.kind &&
  m.ref.name === planned.ref.name &&
  (m.ref.namespace === undefined || m.ref.namespace === planned.ref.namespace);
