import { type HookStageOutcome, runHookStage } from '../apply/runHooks';
import { clientAs, trackIdentity } from '../identity/trackIdentity';
import { trackOwner } from '../ownership/trackOwner';
import type { PhaseContext } from './applyPhase';
import type { ClusterState, PendingClusterState } from './clusterState';
import type { HookRun, RunnableStage } from './helmHooks';
import { applyFailures, type HooksOutcome, type RunOutcomes, runChanges } from './outcomes';

/** How long one stage of hooks may take at most (Helm's default `--timeout`), within the run's budget. */
export const hookTimeoutMs = 300_000;

/** The hooks this run owes its release (spec.helm.hooks Run, not yet run in full), if any. */
export function dueHooks(o: RunOutcomes): HookRun | undefined {
  const run = o.source?.state === 'read' ? o.source.helm?.run : undefined;
  return run?.due ? run : undefined;
}

/**
 * Runs one stage of a chart's hooks (lib/apply/runHooks.ts) as the track's identity, within the
 * run's time budget and the hook timeout, once the lease guard says the run still holds its track. `writes`: the requests it sent (applies and deletes).
 */
export async function runHooks(
  { deps, track, deadline }: PhaseContext,
  cluster: ClusterState,
  stage: RunnableStage,
): Promise<{ outcome: HookStageOutcome; writes: number }> {
  // A run that lost its lease stops before its hooks write or delete anything.
  await deps.guard?.();
  const { client } = deps;
  const before = client.stats.writes;
  const until = Math.min(deadline ?? Number.POSITIVE_INFINITY, Date.now() + hookTimeoutMs);
  const outcome = await runHookStage(
    {
      childClient: clientAs(client, trackIdentity(track, deps.config)),
      track: trackOwner(track),
      config: deps.config,
      discovery: cluster.discovery,
      until,
    },
    stage.event,
    stage.hooks,
  );
  return { outcome, writes: client.stats.writes - before };
}

/** The post stage that cannot run: the chart's objects are not healthy (as `helm --wait` fails). */
export const postHooksHeldBack = (stage: RunnableStage, why: string): HookStageOutcome => ({
  event: stage.event,
  results: [],
  error: `${stage.event} hooks not run: ${why}`,
});

/** The hooks' errors, in the order they happened (the run's errors). */
export const hookErrors = (hooks: HooksOutcome | undefined): string[] =>
  [hooks?.pre?.error, hooks?.post?.error].filter((e): e is string => e !== undefined);

/**
 * The release whose hooks this run ran in full (status.helmHooksRevision), once the run succeeded:
 * a later run of the same release runs none again.
 */
export function hookedRevision(o: RunOutcomes, succeeded: boolean): string | undefined {
  const run = dueHooks(o);
  if (!run || !succeeded || hookErrors(o.hooks).length > 0) return undefined;
  // A continuation's chain ran its pre hooks in its first run.
  const preRan = run.pre.hooks.length === 0 || o.hooks?.pre !== undefined || o.request.continuation;
  const postRan = run.post.hooks.length === 0 || o.hooks?.post !== undefined;
  return preRan && postRan ? run.revision : undefined;
}

/** The post-install / post-upgrade hooks, once the run applied and pruned without an error and its objects are healthy. */
export async function postHooks(
  ctx: PhaseContext,
  outcomes: RunOutcomes,
  post: RunnableStage,
  clusterState: PendingClusterState,
): Promise<void> {
  // A run that fails anyway (an object failed or is another's, the prune refused or failed) runs none.
  const pruneFailed =
    outcomes.prune?.state === 'refused' ||
    (outcomes.prune?.state === 'pruned' && outcomes.prune.changes.some((c) => c.action === 'failed'));
  const conflicts = runChanges(outcomes).some((c) => c.action === 'conflict');
  if (applyFailures(outcomes).length > 0 || outcomes.applyError !== undefined || pruneFailed || conflicts)
    return;
  if (outcomes.leaseLost !== undefined) return;
  const health = outcomes.health;
  if (health?.state !== 'assessed') {
    outcomes.hooks = { ...outcomes.hooks, post: postHooksHeldBack(post, `health unknown: ${health?.error}`) };
    return;
  }
  const { healthy, progressing, failed } = health.health;
  if (progressing > 0 || failed > 0) {
    const why = `the chart's objects are not healthy (healthy ${healthy}, progressing ${progressing}, failed ${failed})`;
    outcomes.hooks = { ...outcomes.hooks, post: postHooksHeldBack(post, why) };
    return;
  }
  ctx.progress('hooks');
  const ran = await runHooks(ctx, await clusterState.get(), post);
  outcomes.hooks = { ...outcomes.hooks, post: ran.outcome };
  outcomes.writes.objects += ran.writes;
}
