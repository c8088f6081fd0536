import { applyPlan } from '../apply/applyPlan';
import { keyedDigest } from '../apply/digestKey';
import { trackerStatusModes } from '../apply/patchTrackerStatus';
import type { PlannedObject } from '../apply/plannedObject';
import { pruneTrackers } from '../apply/prune';
import { WrittenConditions } from '../apply/writtenConditions';
import { clientAs, trackIdentity } from '../identity/trackIdentity';
import { readIgnoreRules } from '../ignore/ignoreRules';
import { withIgnoreRules } from '../ignore/withIgnoreRules';
import type { Manifest } from '../manifests';
import { trackOwner } from '../ownership/trackOwner';
import type { PendingClusterState } from './clusterState';
import { appliedOf, deployedOf } from './deployedOf';
import type { ReconcileRun } from './finishReconcile';
import { partition } from './partition';
import type { ReconcilePhase } from './reconcile';
import { staleTrackers } from './staleTrackers';
import { budgetSpent } from './timeBudget';

/**
 * Partition, apply and (only when everything before went well) prune, recording what happened
 * on `run`. Pruning never runs after any error of this reconcile, fetch and parse included.
 */
export async function applyAndPrune(
  run: ReconcileRun,
  manifests: readonly Manifest[],
  progress: (phase: ReconcilePhase, done?: number, total?: number) => void,
  clusterState: PendingClusterState,
): Promise<void> {
  const { deps, track } = run;
  const { client } = deps;
  const commit = run.commit as string;
  const { discovery, trackers, digestKey, keyWrites } = await clusterState.get();
  // The key is the deployment's bookkeeping, created once: no write to the track's objects.
  run.trackWrites += keyWrites;
  run.trackerStatusModes = trackerStatusModes(discovery);
  const owner = trackOwner(track);
  const plan = withKeyedDigests(
    withIgnoreRules(partition(manifests, owner, deps.config, discovery), readIgnoreRules(track)),
    digestKey,
  );
  run.ignored = plan.ignored;
  run.planned = plan.planned.length + plan.failed.length;
  run.plannedObjects = plan.planned;
  for (const f of plan.failed) {
    run.changes.push({ subject: f.subject, action: 'failed', message: f.message });
  }

  // Children are read, written and pruned as the track's identity; tracking objects as ours.
  const identity = trackIdentity(track, deps.config);
  const childClient = clientAs(client, identity);
  const written = new WrittenConditions();
  progress('apply', 0, plan.planned.length);
  const { deadline } = run;
  const applied = await applyPlan(
    {
      client,
      childClient,
      identity,
      discovery,
      track: owner,
      commit,
      trackers,
      statusModes: run.trackerStatusModes,
      written,
      concurrency: deps.concurrency ?? 16,
      waitTimeoutMs: deps.waitTimeoutMs ?? 120_000,
      onProgress: (done, total) => progress('apply', done, total),
      ...(deadline === undefined ? {} : { shouldStop: (written) => budgetSpent(deadline, written) }),
    },
    plan.planned,
  );
  run.changes.push(...applied);
  run.trackerConditions = written.after(trackers);
  // Objects never taken: the budget ran out. Nothing is pruned; a later run goes on.
  const notTaken = plan.planned.length - applied.length;
  // Conflicts stay out of run.errors: an object another track owns must not stop the prune of
  // this track's objects that left git.
  const failures = run.changes.filter((c) => c.action === 'failed');
  const conflicts = run.changes.filter((c) => c.action === 'conflict');
  run.errors.push(...failures.map((c) => c.message ?? c.subject));
  // Which commit the cluster now partly runs, and how much of it.
  const deployed = deployedOf(run.changes, run.planned, false);
  const appliedText = appliedOf(deployed, commit);
  if (notTaken > 0 && failures.length === 0) {
    run.continuing = { applied: deployed.objects, of: deployed.of };
    run.conditions.Applied = {
      status: 'False',
      reason: 'Progressing',
      message: `${appliedText}, continuing: the time budget ran out with ${notTaken} objects to go`,
    };
    run.conditions.Pruned = {
      status: 'False',
      reason: 'PruneDeferred',
      message: `nothing pruned until every object of ${commit} is applied`,
    };
    return;
  }
  if (failures.length > 0) {
    run.conditions.Applied = {
      status: 'False',
      reason: deployed.extent === 'partial' ? 'PartiallyApplied' : 'ApplyFailed',
      message: `${appliedText}; ${failures.length} failed:\n${failures.map((c) => c.message).join('\n')}`,
    };
  } else if (conflicts.length > 0) {
    run.conditions.Applied = {
      status: 'False',
      reason: 'OwnershipConflict',
      message: `${appliedText}; ${conflicts.length} owned elsewhere:\n${conflicts.map((c) => c.message).join('\n')}`,
    };
  } else {
    run.conditions.Applied = {
      status: 'True',
      reason: 'Applied',
      message: `${plan.planned.length} objects match ${commit}`,
    };
  }

  if (track.spec.prune === false) {
    run.conditions.Pruned = { status: 'True', reason: 'PruneDisabled', message: 'spec.prune is false' };
  } else if (run.errors.length > 0) {
    run.conditions.Pruned = {
      status: 'False',
      reason: 'PruneSkipped',
      message: `nothing pruned: this reconcile had ${run.errors.length} errors`,
    };
  } else {
    const stale = staleTrackers(trackers, plan.planned, manifests, owner.uid);
    if (stale.length > 0 && plan.planned.length === 0 && !track.spec.allowEmpty) {
      const message = `refusing to prune all ${stale.length} tracked objects: ${commit} has no manifests for this track (set spec.allowEmpty to allow)`;
      run.errors.push(message);
      run.conditions.Pruned = { status: 'False', reason: 'PruneRefused', message };
    } else {
      if (stale.length > 0) await deps.guard?.();
      progress('prune', 0, stale.length);
      const pruned = await pruneTrackers({ client, childClient, discovery, track: owner }, stale);
      run.changes.push(...pruned);
      const failed = pruned.filter((c) => c.action === 'failed');
      const unavailable = pruned.filter((c) => c.action === 'unavailable');
      const gone = pruned.length - failed.length - unavailable.length;
      run.errors.push(...failed.map((c) => c.message ?? c.subject));
      run.conditions.Pruned =
        failed.length > 0
          ? { status: 'False', reason: 'PruneFailed', message: failed.map((c) => c.message).join('\n') }
          : unavailable.length > 0
            ? {
                status: 'False',
                reason: 'TypeUnavailable',
                message: `pruned ${gone} objects; ${unavailable.length} kept, their type not served now (a type gone for good: delete its tracking object by hand):\n${unavailable.map((c) => `${c.subject}: ${c.message}`).join('\n')}`,
              }
            : { status: 'True', reason: 'Pruned', message: `pruned ${pruned.length} objects` };
    }
  }
}

/** Every digest a tracking object will show, keyed: readers of tracking objects learn nothing of a manifest. */
function withKeyedDigests<T extends { planned: PlannedObject[] }>(plan: T, key: Buffer): T {
  return { ...plan, planned: plan.planned.map((p) => ({ ...p, digest: keyedDigest(key, p.digest) })) };
}
