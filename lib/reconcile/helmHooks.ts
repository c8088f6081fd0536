import { createHash } from 'node:crypto';
import type { HelmPolicies } from '../helm/helmPolicies';
import type { HelmRelease } from '../helm/helmSpec';
import { type HookStage, type HookStages, planHooks } from '../helm/hookPlan';
import type { ChartHook } from '../helm/runHelmRender';
import { type Manifest, parseManifests } from '../manifests';

/** A hook to run: as Helm rendered it, and its object as the parser reads it. */
export interface RunnableHook {
  hook: ChartHook;
  manifest: Manifest;
}

export interface RunnableStage {
  event: HookStage['event'];
  hooks: RunnableHook[];
}

/** spec.helm.hooks Run: this release's hooks, and whether they are due. */
export interface HookRun {
  /** The release the hooks belong to: a digest of the commit and the resolved spec.helm. */
  revision: string;
  /** False once this revision's hooks ran in full (status.helmHooksRevision): a sweep runs none again. */
  due: boolean;
  pre: RunnableStage;
  post: RunnableStage;
}

/** Where a release's render comes from, and what ran before. */
export interface ReleaseAt {
  /** The commit (or the directory) rendered. */
  where: string;
  /** A digest of spec.helm.valuesFrom's contents (readValuesFrom's valuesDigest). */
  values: string;
  isUpgrade: boolean;
  /** status.helmHooksRevision: the revision whose hooks last ran in full. */
  ranRevision: string | undefined;
}

/**
 * The hooks of a render for one apply (lib/helm/hookPlan.ts), parsed. They run once per release,
 * as a Helm install or upgrade runs them: when the commit, spec.helm or the values read by valuesFrom changed since they last ran
 * in full (`status.helmHooksRevision`), not on every sweep of the same release.
 */
export function helmHooks(
  hooks: readonly ChartHook[],
  policies: HelmPolicies,
  release: HelmRelease,
  at: ReleaseAt,
): { notRun: HookStages['notRun']; run?: HookRun; errors: string[] } {
  const { where, values, isUpgrade, ranRevision } = at;
  const stages = planHooks(hooks, policies.hooks, isUpgrade);
  if (policies.hooks !== 'Run') return { notRun: stages.notRun, errors: [] };
  const errors: string[] = [];
  const parsed = (stage: HookStage): RunnableStage => ({
    event: stage.event,
    hooks: stage.hooks.flatMap((hook) => {
      const content = hook.yaml.endsWith('\n') ? hook.yaml : `${hook.yaml}\n`;
      const oid = createHash('sha1').update(content).digest('hex');
      const read = parseManifests([{ path: hook.path, content, format: 'yaml', oid }]);
      errors.push(...read.errors.map((e) => e.message));
      return read.manifests.map((manifest) => ({ hook, manifest }));
    }),
  });
  const revision = createHash('sha256')
    .update(JSON.stringify([where, release, policies, values]))
    .digest('hex')
    .slice(0, 32);
  const run = { revision, due: revision !== ranRevision, pre: parsed(stages.pre), post: parsed(stages.post) };
  return { notRun: stages.notRun, run, errors };
}
