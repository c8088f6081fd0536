import { isLightkeeperError } from '../errors';
import { waitForHealth } from '../health/waitForHealth';
import { type HookEvent, hookDeletePolicies } from '../helm/hookPlan';
import type { ChartHook } from '../helm/runHelmRender';
import type { Unstructured } from '../kstatus/fields';
import { objectHealth } from '../kstatus/objectHealth';
import type { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { serverSideApply } from '../kube/serverSideApply';
import type { Manifest } from '../manifests';
import type { TrackOwner } from '../ownership/ownershipTable';
import { planManifests } from '../plan/planManifests';
import type { PlannedObject } from '../plan/plannedObject';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { childPath } from './applyContext';
import { childBody } from './childBody';
import { deleteHook } from './deleteHook';

export interface HookContext {
  /** The track's identity (lib/identity): every read, write and delete of a hook. */
  childClient: KubeClient;
  track: TrackOwner;
  config: DeploymentConfig;
  discovery: Pick<Discovery, 'resourceFor'>;
  /** No hook is waited for past this (epoch ms): the run's time budget, or the hook timeout. */
  until: number;
}

/** What became of one hook: ran to health, or failed (why); deleted by a delete policy after. */
export interface HookResult {
  subject: string;
  state: 'succeeded' | 'failed';
  message?: string;
  deleted?: true;
}

export interface HookStageOutcome {
  event: HookEvent;
  results: HookResult[];
  /** Set when a hook failed (or could not be planned): the stage stopped there. */
  error?: string;
}

/**
 * Runs one stage of a chart's hooks, in order, as Helm's execHook does: each through the ownership
 * table (a GitTrack's only in its own namespace), its previous object deleted first
 * (before-hook-creation), applied as the track without owner references and without a tracking
 * object (so nothing ever prunes it), and waited for with the health rules (a Job must complete)
 * until `until`. The first failure stops the stage; hook-failed deletes that hook. Once all
 * succeeded, hook-succeeded deletes theirs, last first. A CustomResourceDefinition is never deleted.
 */
export async function runHookStage(
  ctx: HookContext,
  event: HookEvent,
  hooks: ReadonlyArray<{ hook: ChartHook; manifest: Manifest }>,
): Promise<HookStageOutcome> {
  const plan = planManifests(
    hooks.map((h) => h.manifest),
    { track: ctx.track, config: ctx.config, discovery: ctx.discovery, ignoreRules: [], digestKey: undefined },
  );
  const refused = [
    ...plan.failed.map((f) => f.message),
    ...plan.ignored.map((i) => `${i.object ?? i.path}: ${i.reason}`),
  ];
  if (refused.length > 0)
    return { event, results: [], error: `${event} hooks not run: ${refused.join('; ')}` };
  const planned = new Map(plan.planned.map((p) => [p.manifest.source, p]));
  const results: HookResult[] = [];
  const ran: Array<{ hook: ChartHook; planned: PlannedObject; result: HookResult }> = [];
  for (const { hook, manifest } of hooks) {
    const p = planned.get(manifest.source) as PlannedObject;
    const result = await runHook(ctx, hook, p);
    results.push(result);
    ran.push({ hook, planned: p, result });
    if (result.state === 'failed') {
      await deleteByPolicy(ctx, ran, 'hook-failed', {});
      // As Helm: the hooks that succeeded before the failure go by their hook-succeeded policy.
      await deleteByPolicy(ctx, ran.slice(0, -1), 'hook-succeeded', {});
      return { event, results, error: `${event} hook ${result.subject} failed: ${result.message}` };
    }
  }
  const failure: { message?: string } = {};
  await deleteByPolicy(ctx, [...ran].reverse(), 'hook-succeeded', failure);
  return { event, results, ...(failure.message ? { error: failure.message } : {}) };
}

async function runHook(ctx: HookContext, hook: ChartHook, p: PlannedObject): Promise<HookResult> {
  const subject = p.subject;
  const path = childPath(p);
  try {
    if (hookDeletePolicies(hook).includes('before-hook-creation') && hook.kind !== 'CustomResourceDefinition')
      await deleteHook(ctx.childClient, path, subject, ctx.track.uid, ctx.until);
    const target = { ...p.resource, namespace: p.decision.namespace, name: p.manifest.ref.name };
    await serverSideApply(ctx.childClient, target, childBody(p, ctx.track, []), { subject });
    const waited = await waitForHealth({
      look: async () => {
        const live = await ctx.childClient.find<Unstructured>(path, { subject });
        return { state: live, health: [objectHealth(live)] };
      },
      until: ctx.until,
    });
    if (waited.end === 'healthy') return { subject, state: 'succeeded' };
    const health = objectHealth(waited.state);
    const why = waited.end === 'timeout' ? `not ready in time (${health.message})` : health.message;
    return { subject, state: 'failed', message: why };
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    return { subject, state: 'failed', message: e.message };
  }
}

/** Deletes the hooks of `ran` that carry `policy`; a failure to delete is said in `failure`. */
async function deleteByPolicy(
  ctx: HookContext,
  ran: ReadonlyArray<{ hook: ChartHook; planned: PlannedObject; result: HookResult }>,
  policy: 'hook-succeeded' | 'hook-failed',
  failure: { message?: string | undefined },
): Promise<void> {
  const wanted = policy === 'hook-succeeded' ? 'succeeded' : 'failed';
  for (const { hook, planned, result } of ran) {
    if (result.state !== wanted || hook.kind === 'CustomResourceDefinition') continue;
    if (!hookDeletePolicies(hook).includes(policy)) continue;
    try {
      if (await deleteHook(ctx.childClient, childPath(planned), planned.subject, ctx.track.uid, ctx.until))
        result.deleted = true;
    } catch (e) {
      if (!isLightkeeperError(e)) throw e;
      failure.message ??= `deleting hook ${planned.subject} (${policy}) failed: ${e.message}`;
    }
  }
}
