import { type ApplyPlanOptions, applyPlan } from '../apply/applyPlan';
import { clientAs, trackIdentity } from '../identity/trackIdentity';
import { trackOwner } from '../ownership/trackOwner';
import { defaultConcurrency } from '../settings/defaults';
import type { TrackObject } from '../track/trackObject';
import type { TrackerStatusModes } from '../tracker/patchTrackerStatus';
import { WrittenConditions } from '../tracker/writtenConditions';
import type { ClusterState } from './clusterState';
import type { ApplyOutcome, PlanOutcome } from './outcomes';
import type { ReconcileDeps, ReconcilePhase } from './reconcileDeps';
import { budgetSpent } from './timeBudget';

export interface PhaseContext {
  deps: ReconcileDeps;
  track: TrackObject;
  /** When the time budget runs out (epoch ms); undefined: no limit. */
  deadline: number | undefined;
  progress: (phase: ReconcilePhase, done?: number, total?: number) => void;
}

/** What a run adds to the staged apply. */
export interface ApplyStages {
  /** A chart's pre hooks: run after validation and the definitions stage; a reason holds the rest back. */
  beforeResources?: ApplyPlanOptions['beforeResources'];
  /** How the live children are read (an incremental run: a GET each of the few it plans). */
  readChildren?: ApplyPlanOptions['readChildren'];
}

/**
 * Staged server-side apply of the planned objects (lib/apply): children as the track's identity,
 * tracking objects as the reconciler. Stops taking objects once the time budget is spent.
 * `writes`: the write requests it sent, all of them object writes.
 */
export async function applyCommit(
  { deps, track, deadline, progress }: PhaseContext,
  plan: PlanOutcome,
  cluster: ClusterState,
  commit: string,
  statusModes: TrackerStatusModes,
  validate: boolean,
  stages: ApplyStages = {},
): Promise<{ outcome: ApplyOutcome; writes: number }> {
  const { client } = deps;
  const before = client.stats.writes;
  const identity = trackIdentity(track, deps.config);
  const written = new WrittenConditions();
  progress('apply', 0, plan.planned.length);
  const { changes, refused } = await applyPlan(
    {
      client,
      childClient: clientAs(client, identity),
      identity,
      discovery: cluster.discovery,
      track: trackOwner(track),
      commit,
      trackers: cluster.trackers,
      statusModes,
      written,
      concurrency: deps.concurrency ?? defaultConcurrency,
      waitTimeoutMs: deps.waitTimeoutMs ?? 120_000,
      onProgress: (done, total) => progress('apply', done, total),
      validate,
      ...(stages.beforeResources ? { beforeResources: stages.beforeResources } : {}),
      ...(stages.readChildren ? { readChildren: stages.readChildren } : {}),
      ...(deadline === undefined ? {} : { shouldStop: (n) => budgetSpent(deadline, n) }),
    },
    plan.planned,
  );
  const outcome: ApplyOutcome = {
    changes,
    notTaken: refused ? 0 : plan.planned.length - changes.length,
    ...(refused ? { refused } : {}),
    statusModes,
    trackerConditions: written.after(cluster.trackers),
  };
  return { outcome, writes: client.stats.writes - before };
}
