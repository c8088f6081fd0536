import { planDigest, shardSize, splitShards } from '../plan/shardPlan';
import type { TrackerStatusModes } from '../tracker/patchTrackerStatus';
import { type ApplyStages, applyCommit, type PhaseContext } from './applyPhase';
import type { ClusterState } from './clusterState';
import { applyFailures, type PlanOutcome, type RunOutcomes } from './outcomes';
import { shardVerdict, startShards } from './shardRecord';
import { writeShards } from './writeShards';

/**
 * The coordinating side of a sharded apply. A track planning more objects than the threshold is
 * not applied whole by one run: this run applies its definitions (CRDs, Namespaces, every
 * cluster-scoped object but webhook configurations and APIServices, which the completing run applies
 * last, as a whole run does) itself, records the shards on the track (status.shards, a conditional
 * write) and reports the shards to start (`outcomes.shards.started`: the reconcile function invokes
 * one run each, carrying keys only). It prunes nothing and ends Continuing. Returns false when the run
 * applies the whole plan as any other: a small track, a shard run, no shard settings (the CLI), or
 * every shard of this commit and plan succeeded (the run then finds them in sync, and prunes once).
 */
export async function coordinateShards(
  ctx: PhaseContext,
  outcomes: RunOutcomes,
  plan: PlanOutcome,
  cluster: ClusterState,
  commit: string,
  statusModes: TrackerStatusModes,
  stages: ApplyStages,
): Promise<boolean> {
  const settings = ctx.deps.shards;
  if (!settings || settings.threshold <= 0 || outcomes.request.shard) return false;
  if (plan.planned.length <= settings.threshold) return false;
  const digest = planDigest(plan.planned);
  const now = new Date();
  const verdict = shardVerdict(ctx.track.status?.shards, commit, digest, now, settings.pendingMs);
  if (verdict.kind === 'complete') return false;
  // The record of this commit and plan keeps its size (the shard runs cut with it); else one wave.
  const previous = ctx.track.status?.shards;
  const same = previous?.commit === commit && previous.planDigest === digest;
  const perShard = same
    ? (previous.perShard ?? previous.threshold)
    : shardSize(plan.planned, settings.threshold, settings.fanout);
  const split = splitShards(plan.planned, perShard);
  if (split.shards.size === 0) return false;
  const definitions = { ...plan, planned: split.definitions };
  // The definitions are validated and applied as any commit's are (a continuation: not again).
  const applied = await applyCommit(
    ctx,
    definitions,
    cluster,
    commit,
    statusModes,
    !outcomes.request.continuation,
    stages,
  );
  const rest = plan.planned.length - split.definitions.length;
  outcomes.apply = { ...applied.outcome, notTaken: applied.outcome.notTaken + rest };
  outcomes.writes.objects += applied.writes;
  // A definition that failed, or one not taken in time, starts no shard: the run reports it as usual.
  if (applyFailures(outcomes).length > 0 || applied.outcome.notTaken > 0) return true;
  const report = { planDigest: digest, total: split.shards.size };
  if (verdict.kind === 'wait') {
    outcomes.shards = { ...report, started: [], running: verdict.running };
    return true;
  }
  const sizes = new Map([...split.shards].map(([id, objects]) => [id, objects.length]));
  const fresh = {
    commit,
    planDigest: digest,
    threshold: settings.threshold,
    perShard,
    objects: plan.planned.length,
    startedAt: now.toISOString(),
  };
  const written = await writeShards(ctx.deps.client, outcomes.request.track, (track) => {
    const next = startShards(fresh, sizes, track.status?.shards, settings.fanout, now);
    return { status: { shards: next.record }, ...next };
  });
  outcomes.writes.status++;
  const record = written?.record;
  const running = record?.shards.filter((s) => s.state === 'running').map((s) => s.id) ?? [];
  outcomes.shards = {
    ...report,
    started: written?.started ?? [],
    running,
    ...(verdict.kind === 'resume' ? { stuck: verdict.stuck } : {}),
  };
  return true;
}
