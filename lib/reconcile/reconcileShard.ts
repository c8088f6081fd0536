import type { Change } from '../apply/change';
import { listChildren } from '../apply/liveChildren';
import { ConfigError, isLightkeeperError } from '../errors';
import { collapseForbidden } from '../identity/forbiddenFix';
import { defaultLeaseNamespace } from '../lease/leaseTarget';
import { trackOwner } from '../ownership/trackOwner';
import type { PlannedObject } from '../plan/plannedObject';
import { planDigest, splitShards } from '../plan/shardPlan';
import { trackRefusal } from '../settings/deploymentModes';
import { loadTrack } from '../track/loadTrack';
import type { TrackObject } from '../track/trackObject';
import { trackLabel } from '../track/trackRef';
import { listTrackers } from '../tracker/liveTracker';
import { trackerStatusModes } from '../tracker/patchTrackerStatus';
import { applyCommit } from './applyPhase';
import { readClusterState } from './clusterState';
import { sharded } from './conditionTexts';
import { gitSource } from './gitSource';
import type { SourceOutcome } from './outcomes';
import { planCommit } from './planPhase';
import type { ReconcileDeps } from './reconcileDeps';
import { recordShardOutcome, type ShardOutcome, shardSuperseded } from './shardRecord';
import { mergeConditions } from './trackStatus';
import type { ReconcileRequest, ReconcileSummary } from './types';
import { writeShards } from './writeShards';

type ShardRequest = ReconcileRequest & { commit: string; shard: { id: string; planDigest: string } };

/**
 * One shard of a sharded apply: the same commit fetched and planned again, the plan's digest
 * checked against the coordinator's (else the shard fails as superseded), then the one apply engine
 * on this shard's objects only. It NEVER prunes, takes no lease (shards run side by side), and
 * records its outcome in status.shards with a conditional write, claiming the next pending shards.
 * A failed shard also makes the track's Ready False, naming it. `shards.complete`: this run recorded
 * the last success, and the run that prunes (a continuation of the commit) is started next.
 * Like a whole run, a shard stops taking objects when its time budget is spent (`Continuing`): it
 * stays running in the record and is started again, where its objects in sync are skipped.
 */
export async function reconcileShard(deps: ReconcileDeps, request: ShardRequest): Promise<ReconcileSummary> {
  const started = Date.now();
  const { client } = deps;
  const refusal = trackRefusal(deps.config, request.track);
  if (refusal)
    throw new ConfigError(`${trackLabel(request.track)}: ${refusal}`, { subject: trackLabel(request.track) });
  const key = { id: request.shard.id, commit: request.commit, planDigest: request.shard.planDigest };
  const track = await loadTrack(client, request.track);
  const summary = emptySummary(request);
  const gone =
    track.spec.suspend === true
      ? `shard ${key.id} of ${key.commit} stands down: spec.suspend is true`
      : shardSuperseded(track.status?.shards, key);
  if (gone) return { ...summary, result: 'Aborted', errors: [gone], durationMs: Date.now() - started };
  const writesBefore = client.stats.writes;
  const budget = typeof deps.timeBudgetMs === 'function' ? deps.timeBudgetMs() : deps.timeBudgetMs;
  const deadline = budget === undefined ? undefined : started + budget;
  const { changes, errors, notTaken } = await applyShard(deps, request, track, deadline);
  const outcome: ShardOutcome = {
    applied: changes.filter((c) => c.action === 'created' || c.action === 'configured').length,
    failed: changes.filter((c) => c.action === 'failed').length,
    errors: collapseForbidden(errors, request.track),
    notTaken,
  };
  summary.writes.objects = client.stats.writes - writesBefore;
  const fanout = deps.shards?.fanout ?? 1;
  let superseded: string | undefined;
  const written = await writeShards(client, request.track, (t) => {
    const now = new Date();
    const next = recordShardOutcome(t.status?.shards, key, outcome, fanout, now);
    if ('superseded' in next) {
      superseded = next.superseded;
      return undefined;
    }
    const failed = outcome.errors.length > 0 || outcome.failed > 0;
    const ready = sharded.failed(key.id, key.commit, outcome.errors);
    const conditions = failed ? { conditions: mergeConditions(t, { Ready: ready }, now.toISOString()) } : {};
    return { status: { shards: next.record, ...conditions }, ...next };
  });
  summary.writes.status = client.stats.writes - writesBefore - summary.writes.objects;
  const result = superseded
    ? 'Aborted'
    : outcome.errors.length > 0
      ? 'Failed'
      : written?.continuing
        ? 'Continuing'
        : 'Succeeded';
  return {
    ...summary,
    result,
    durationMs: Date.now() - started,
    changes,
    errors: superseded ? [...outcome.errors, superseded] : outcome.errors,
    counts: { ...summary.counts, ...counted(changes) },
    shards: {
      planDigest: key.planDigest,
      total: written?.record.shards.length ?? 0,
      started: written?.started ?? [],
      complete: written?.complete ?? false,
    },
  };
}

/**
 * Fetch, parse and plan the commit again; check the plan; apply this shard's objects until the
 * deadline (`notTaken`: the objects left when it came). Errors are data.
 */
async function applyShard(
  deps: ReconcileDeps,
  request: ShardRequest,
  track: TrackObject,
  deadline: number | undefined,
): Promise<{ changes: Change[]; errors: string[]; notTaken: number }> {
  const label = `shard ${request.shard.id} of ${request.commit}`;
  const keyNamespace = deps.keyNamespace ?? defaultLeaseNamespace;
  const owner = trackOwner(track);
  // The tracking objects are listed once the shard's namespaces are known (below).
  const clusterState = readClusterState(deps.client, owner, keyNamespace, true);
  const source = deps.source ?? gitSource(deps);
  const read: SourceOutcome = await source({
    track,
    reference: request.commit,
    listHead: false,
    deadline,
    onFetched: () => {},
    discovery: () => clusterState.base().then((c) => c.discovery),
  });
  if (read.state !== 'read' || read.errors.length > 0) {
    await clusterState.settled();
    return { changes: [], errors: read.state === 'read' ? read.errors : [read.error], notTaken: 0 };
  }
  try {
    const base = await clusterState.base();
    const plan = planCommit(read.manifests, track, deps.config, base);
    const digest = planDigest(plan.planned);
    if (digest !== request.shard.planDigest)
      return {
        changes: [],
        errors: [`${label} superseded: its plan is ${digest}, not ${request.shard.planDigest}`],
        notTaken: 0,
      };
    const record = track.status?.shards;
    const size = record?.perShard ?? record?.threshold ?? deps.shards?.threshold ?? plan.planned.length;
    const objects = splitShards(plan.planned, size).shards.get(request.shard.id) ?? [];
    // A shard holds namespaced objects only (the definitions are the coordinator's): it reads the
    // children and tracking objects of its namespaces, not the whole track's.
    const namespaces = shardNamespaces(objects);
    const cluster = { ...base, trackers: await listTrackers(deps.client, owner, namespaces) };
    const ctx = { deps, track, deadline, progress: deps.onProgress ?? (() => {}) };
    const statusModes = trackerStatusModes(cluster.discovery);
    const applied = await applyCommit(
      ctx,
      { ...plan, planned: objects },
      cluster,
      request.commit,
      statusModes,
      true,
      { readChildren: (client, t, planned) => listChildren(client, t, planned, namespaces) },
    );
    const changes = applied.outcome.changes;
    const { notTaken } = applied.outcome;
    // Only a deadline leaves objects untaken; without one it would be a fault of the engine.
    const untaken = notTaken > 0 && deadline === undefined ? [`${label}: ${notTaken} objects not taken`] : [];
    return {
      changes,
      errors: [
        ...changes.filter((c) => c.action === 'failed').map((c) => c.message ?? c.subject),
        ...untaken,
      ],
      notTaken,
    };
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    return { changes: [], errors: [`${label}: ${e.message}`], notTaken: 0 };
  }
}

/**
 * Namespaces a shard lists one by one (a LIST per namespace and type): past this, a pack of many
 * small namespaces reads the whole track's lists instead, fewer requests for what it holds.
 */
export const maxListedNamespaces = 16;

/**
 * The namespaces of a shard's objects; undefined (read the whole track) if any is cluster-scoped or
 * there are more than maxListedNamespaces.
 */
export function shardNamespaces(objects: readonly PlannedObject[]): string[] | undefined {
  const namespaces = new Set<string>();
  for (const p of objects) {
    const namespace = p.manifest.ref.namespace;
    if (!p.resource.namespaced || namespace === undefined) return undefined;
    namespaces.add(namespace);
  }
  return namespaces.size > maxListedNamespaces ? undefined : [...namespaces].sort();
}

const counted = (changes: Change[]) => ({
  applied: changes.filter((c) => c.action === 'created' || c.action === 'configured').length,
  inSync: changes.filter((c) => ['created', 'configured', 'unchanged', 'skipped'].includes(c.action)).length,
  failed: changes.filter((c) => c.action === 'failed').length,
  conflicts: changes.filter((c) => c.action === 'conflict').length,
  drifted: changes.filter((c) => c.drifted).length,
});

function emptySummary(request: ShardRequest): ReconcileSummary {
  return {
    track: request.track,
    mode: request.mode ?? 'apply',
    result: 'Succeeded',
    commit: request.commit,
    reference: request.commit,
    durationMs: 0,
    counts: {
      discovered: 0,
      applied: 0,
      inSync: 0,
      ignored: 0,
      failed: 0,
      conflicts: 0,
      pruned: 0,
      unavailable: 0,
      drifted: 0,
    },
    changes: [],
    ignored: [],
    errors: [],
    writes: { objects: 0, health: 0, status: 0 },
  };
}
