import { checkDependencies } from '../depends/checkDependencies';
import { isLeaseLost, isLightkeeperError } from '../errors';
import { defaultLeaseNamespace } from '../lease/leaseTarget';
import type { Manifest } from '../manifests';
import { trackOwner } from '../ownership/trackOwner';
import type { TrackObject } from '../track/trackObject';
import { trackerStatusModes } from '../tracker/patchTrackerStatus';
import { applyCommit, type PhaseContext } from './applyPhase';
import { type PendingClusterState, readClusterState } from './clusterState';
import { type EarlyHealth, prefetchChildren, readUnwrittenEarly, startEarlyHealth } from './earlyReads';
import { gitSource } from './gitSource';
import { assessHealth } from './healthPhase';
import { dueHooks, hookErrors, postHooks, runHooks } from './hookPhase';
import { type DiffRead, incrementalGate } from './incrementalGate';
import { incrementalPhases } from './incrementalPhases';
import { applyFailures, isContinuing, type RunOutcomes, runChanges } from './outcomes';
import { isSuspendedFor, pinnedCommit, supersededContinuation } from './pinnedCommit';
import { planCommit } from './planPhase';
import { pruneStale } from './prunePhase';
import type { ReconcileDeps } from './reconcileDeps';
import { recordEvent } from './recordEvent';
import { coordinateShards } from './shardPhase';
import { gitDeadline } from './timeBudget';
import { startedEvent } from './trackEvents';
import type { ReconcileRequest } from './types';

/**
 * The phases of one reconcile, each returning its outcome: the gate (suspend, a superseded
 * continuation, spec.dependsOn), then source (fetch, read, render, parse), plan, apply, prune (only
 * after an error-free run) and health (after prune). Nothing here decides the result or writes
 * the track's status: conclude.ts and writeStatus.ts do, once.
 */
export async function runPhases(
  deps: ReconcileDeps,
  request: ReconcileRequest,
  track: TrackObject,
  deadline: number | undefined,
): Promise<RunOutcomes> {
  const outcomes: RunOutcomes = { request, writes: { objects: 0, health: 0, status: 0 } };
  if (isSuspendedFor(track.spec, request)) return { ...outcomes, suspended: true };
  const superseded = supersededContinuation(track, request);
  if (superseded) return { ...outcomes, superseded };
  // A continuation goes on with a commit whose dependencies were checked when its chain began.
  if (!request.continuation) {
    const check = await checkDependencies(
      deps.client,
      deps.config,
      track,
      gitDeadline(deadline),
      deps.gitCacheRoot,
    );
    if (check.state !== 'ready') return { ...outcomes, dependencies: check };
  }
  const choice = pinnedCommit(track.spec, request);
  outcomes.choice = choice;
  const progress = deps.onProgress ?? (() => {});
  const ctx: PhaseContext = { deps, track, deadline, progress };
  // Read while the commit is fetched and parsed; every path below waits for it before it ends.
  const keyNamespace = deps.keyNamespace ?? defaultLeaseNamespace;
  // A run the gate may let apply only a push's changed files does not list every tracking object.
  const gate = (commit: string, diff?: DiffRead) => {
    const verdict = incrementalGate(
      { track, request, commit, maxFiles: deps.config.incrementalMaxFiles },
      diff,
    );
    if (verdict.kind === 'whole') clusterState.listTrackers();
    return verdict;
  };
  const maxFiles = deps.config.incrementalMaxFiles;
  const mayBeIncremental =
    !deps.source && incrementalGate({ track, request, commit: '', maxFiles }).kind === 'diff';
  const clusterState = readClusterState(deps.client, trackOwner(track), keyNamespace, mayBeIncremental);
  progress('fetch');
  const source = deps.source ?? gitSource(deps);
  const { repository } = track.spec;
  outcomes.source = await source({
    track,
    reference: choice.reference,
    listHead: choice.pin !== undefined,
    deadline,
    onFetched: (commit) => deps.onFetched?.({ commit, repository }),
    ...(mayBeIncremental ? { incremental: gate } : {}),
    onRead: async (commit) => {
      if (commit !== track.status?.lastAppliedCommit) {
        const started = startedEvent(commit, request.reason);
        await recordEvent(deps.client, track, started.type, started.reason, started.message).catch(() => {});
        outcomes.writes.status++;
      }
      progress('parse');
    },
    discovery: () => clusterState.get().then((c) => c.discovery),
  }).catch(async (e) => {
    await clusterState.settled();
    throw e;
  });
  const read = outcomes.source;
  // A commit that does not parse is broken: none of it is applied, nothing pruned (as Flux does
  // when a build fails). The cluster keeps running what it ran.
  if (read.state !== 'read' || read.errors.length > 0) {
    await clusterState.settled();
    return outcomes;
  }
  if (read.incremental)
    await incrementalPhases(ctx, outcomes, { ...read, incremental: read.incremental }, clusterState);
  else await commitPhases(ctx, outcomes, read.manifests, read.commit, clusterState);
  return outcomes;
}

/** plan → apply → prune → health; an API failure mid-way is `applyError`, a lost lease `leaseLost`. */
async function commitPhases(
  ctx: PhaseContext,
  outcomes: RunOutcomes,
  manifests: Manifest[],
  commit: string,
  clusterState: PendingClusterState,
): Promise<void> {
  const { deps, track } = ctx;
  let statusModes: ReturnType<typeof trackerStatusModes> | undefined;
  let earlyHealth: EarlyHealth | undefined;
  try {
    const base = await clusterState.base();
    // The key is the deployment's bookkeeping, created once: no write to the track's objects.
    outcomes.writes.status += base.keyWrites;
    statusModes = trackerStatusModes(base.discovery);
    const plan = planCommit(manifests, track, deps.config, base);
    // The children's LISTs go out beside the tracking objects' instead of after them.
    const children = willShard(deps, outcomes, plan.planned.length)
      ? undefined
      : prefetchChildren(ctx, plan, dueHooks(outcomes) !== undefined);
    const cluster = await clusterState.get();
    // Set once the tracking objects are read: a run that could not read them judges no health.
    outcomes.plan = plan;
    // A chart's pre-install / pre-upgrade hooks (a continuation's chain ran them in its first run),
    // once the commit is validated and its definitions are in: one failing holds the chart's other
    // objects back (each failed), so nothing is pruned.
    const pre = dueHooks(outcomes)?.pre;
    const beforeResources =
      pre && pre.hooks.length > 0 && !outcomes.request.continuation
        ? async () => {
            ctx.progress('hooks');
            const ran = await runHooks(ctx, cluster, pre);
            outcomes.hooks = { pre: ran.outcome };
            return ran.outcome.error === undefined ? undefined : `the ${pre.event} hooks failed`;
          }
        : undefined;
    const stages = {
      ...(beforeResources ? { beforeResources } : {}),
      ...(children ? { readChildren: children.read } : {}),
    };
    // Above the shard threshold: the definitions here, the rest by shard runs; nothing pruned.
    if (await coordinateShards(ctx, outcomes, plan, cluster, commit, statusModes, stages)) return;
    // Health's LISTs start with the apply; a type the apply leaves unwritten is read from them.
    earlyHealth = startEarlyHealth(ctx, plan, dueHooks(outcomes) !== undefined, children);
    // A continuation goes on with a commit the run that began its chain validated whole (it ended
    // Continuing, so nothing was refused): its dry-runs are not sent again for what is left.
    const applied = await applyCommit(
      ctx,
      plan,
      cluster,
      commit,
      statusModes,
      !outcomes.request.continuation,
      stages,
    );
    outcomes.apply = applied.outcome;
    outcomes.writes.objects += applied.writes;
    // Out of time: nothing is pruned and no health judged; a later run goes on.
    if (isContinuing(outcomes)) return;
    const errors = applyFailures(outcomes).length + hookErrors(outcomes.hooks).length;
    const pruned = await pruneStale(ctx, plan, manifests, cluster, errors);
    outcomes.prune = pruned.outcome;
    outcomes.writes.objects += pruned.writes;
  } catch (e) {
    if (isLeaseLost(e)) {
      outcomes.leaseLost = e.message;
      return;
    }
    // The API server failed us mid-way (discovery, a LIST): report it; nothing (more) is pruned.
    if (!isLightkeeperError(e)) throw e;
    outcomes.applyError = e.message;
  }
  // Health after prune, never before it: what is pruned does not depend on health.
  if (!outcomes.plan || !statusModes) return;
  ctx.progress('health');
  const trackerConditions = outcomes.apply?.trackerConditions;
  // Post hooks wait for the chart's objects to be healthy, as `helm install --wait` does.
  const post = dueHooks(outcomes)?.post;
  const postDue =
    post !== undefined &&
    post.hooks.length > 0 &&
    !isContinuing(outcomes) &&
    hookErrors(outcomes.hooks).length === 0;
  const changes = runChanges(outcomes);
  const readTargets = earlyHealth && readUnwrittenEarly(earlyHealth, outcomes.plan.planned, changes);
  const health = await assessHealth(
    ctx,
    outcomes.plan,
    changes,
    { statusModes, trackerConditions },
    { forPostHooks: postDue, ...(readTargets ? { readTargets } : {}) },
  );
  outcomes.health = health.outcome;
  outcomes.writes.health += health.writes;
  if (!postDue) return;
  try {
    await postHooks(ctx, outcomes, post, clusterState);
  } catch (e) {
    if (!isLeaseLost(e)) throw e;
    outcomes.leaseLost = e.message;
  }
}

/** Whether coordinateShards will cut this plan (its run applies the definitions only). */
const willShard = (deps: ReconcileDeps, outcomes: RunOutcomes, planned: number) =>
  deps.shards !== undefined &&
  deps.shards.threshold > 0 &&
  !outcomes.request.shard &&
  planned > deps.shards.threshold;
