import { describe, expect, it } from 'vitest';
import type { ChartHook } from '../../../lib/helm/runHelmRender';
import type { Manifest } from '../../../lib/manifests';
import type { PlannedObject } from '../../../lib/plan/plannedObject';
import { conclude } from '../../../lib/reconcile/conclude';
import type { HookRun } from '../../../lib/reconcile/helmHooks';
import { helmHooks } from '../../../lib/reconcile/helmHooks';
import type { RunOutcomes } from '../../../lib/reconcile/outcomes';
import type { TrackCondition, TrackObject } from '../../../lib/track/trackObject';
import type { TrackerStatusModes } from '../../../lib/tracker/patchTrackerStatus';

// conclude() of a chart's hooks (spec.helm.hooks Run), from fixtures.

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const now = new Date('2026-12-02T12:00:00Z');
const ref = { kind: 'GitTrack', namespace: 'shop', name: 'web' } as const;
const statusModes = { GitTrackObject: 'object', ClusterGitTrackObject: 'object' } as TrackerStatusModes;
const track: TrackObject = {
  apiVersion: 'lightkeeper.dev/v1alpha1',
  kind: 'GitTrack',
  metadata: { name: 'web', namespace: 'shop', uid: 'u1', generation: 2 },
  spec: { repository: 'https://git.example/shop.git', reference: 'main', helm: { hooks: 'Run' } },
  status: { lastAppliedCommit: A, helmHooksRevision: 'older' },
};
const hook = (name: string, event: string, weight: number): ChartHook => ({
  path: `web/templates/${name}.yaml`,
  kind: 'Job',
  name,
  events: [event],
  weight,
  deletePolicies: [],
  yaml: `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: ${name}\n`,
});
const release = {
  chart: 'web',
  releaseName: 'web',
  namespace: 'shop',
  valuesFiles: [],
  values: {},
  valuesFrom: [],
};
const policies = { crds: 'CreateReplace', hooks: 'Run' } as const;
const hooks = [
  hook('migrate', 'pre-upgrade', 1),
  hook('notify', 'post-upgrade', 0),
  hook('smoke', 'test', 0),
];
const at = (where: string, ranRevision: string | undefined, values = 'none') => ({
  where,
  values,
  isUpgrade: true,
  ranRevision,
});
const run = helmHooks(hooks, policies, release, at(B, 'older')).run as HookRun;

function outcomes(extra: Partial<RunOutcomes>, hookRun: HookRun = run): RunOutcomes {
  return {
    request: { track: ref, reason: 'push' },
    choice: { reference: 'main', followsPin: false },
    source: {
      state: 'read',
      commit: B,
      files: 1,
      manifests: [{} as Manifest],
      errors: [],
      helm: {
        chart: 'web',
        release: 'web',
        namespace: 'shop',
        hooks: [],
        run: hookRun,
        nondeterministic: [],
      },
    },
    plan: { planned: [{} as PlannedObject], failed: [], ignored: [] },
    writes: { objects: 0, health: 0, status: 0 },
    ...extra,
  };
}
const conditionOf = (c: ReturnType<typeof conclude>, type: string) =>
  ((c.status?.status.conditions ?? []) as TrackCondition[]).find((x) => x.type === type);

describe('helmHooks', () => {
  it('names a release by its commit, spec.helm and the valuesFrom contents: due until its hooks ran in full', () => {
    expect(run.due).toBe(true);
    expect(run.pre.hooks.map((h) => h.manifest.ref.name)).toEqual(['migrate']);
    expect(helmHooks(hooks, policies, release, at(B, run.revision)).run?.due).toBe(false);
    expect(helmHooks(hooks, policies, release, at(A, run.revision)).run?.revision).not.toBe(run.revision);
    const values = { ...release, values: { replicaCount: 2 } };
    expect(helmHooks(hooks, policies, values, at(B, run.revision)).run?.due).toBe(true);
    expect(helmHooks(hooks, policies, release, at(B, run.revision, 'changed')).run?.due).toBe(true);
    expect(helmHooks(hooks, { ...policies, hooks: 'Skip' }, release, at(B, undefined)).run).toBeUndefined();
  });
});

describe('conclude: hooks', () => {
  it('fails a run whose pre-upgrade hook failed: Ready names it, the commit is not the last applied', () => {
    const error = 'pre-upgrade hook Job.batch/shop/migrate failed: Job Failed. failed: 1/1';
    // The staged apply held the chart's objects back (lib/apply/applyPlan.ts beforeResources); prune was skipped.
    const held = 'ConfigMap/shop/app: not applied: the pre-upgrade hooks failed';
    const c = conclude(
      outcomes({
        hooks: { pre: { event: 'pre-upgrade', results: [], error } },
        apply: {
          changes: [{ subject: 'ConfigMap/shop/app', action: 'failed', message: held }],
          notTaken: 0,
          statusModes,
          trackerConditions: undefined,
        },
        prune: { state: 'skipped', errors: 2 },
      }),
      track,
      now,
    );
    expect(c.summary).toMatchObject({
      result: 'Failed',
      errors: [error, held],
      counts: { applied: 0, pruned: 0, failed: 1 },
    });
    expect(conditionOf(c, 'Pruned')).toMatchObject({ status: 'False', reason: 'PruneSkipped' });
    expect(conditionOf(c, 'Ready')).toMatchObject({
      status: 'False',
      message: expect.stringContaining(error),
    });
    expect(conditionOf(c, 'Parsed')?.message).toBe(
      '1 objects rendered by helm from web (release web in shop); hooks run in order: pre-upgrade Job/migrate; then post-upgrade Job/notify',
    );
    expect(c.status?.status.lastAppliedCommit).toBe(A);
    expect(c.status?.status.helmHooksRevision).toBeUndefined();
  });

  it('records the release whose hooks all ran, so a later run of it runs none again', () => {
    const ran = { results: [{ subject: 'Job.batch/shop/x', state: 'succeeded' as const }] };
    const o = outcomes({
      apply: {
        changes: [{ subject: 'Deployment.apps/shop/web', action: 'configured' }],
        notTaken: 0,
        statusModes,
        trackerConditions: undefined,
      },
      prune: { state: 'pruned', changes: [] },
      hooks: { pre: { event: 'pre-upgrade', ...ran }, post: { event: 'post-upgrade', ...ran } },
    });
    const c = conclude(o, track, now);
    expect(c.summary.result).toBe('Succeeded');
    expect(c.status?.status.helmHooksRevision).toBe(run.revision);
    // Post hooks held back (the chart not healthy): the run fails, the release is not recorded.
    const held = conclude(
      {
        ...o,
        hooks: {
          ...o.hooks,
          post: { event: 'post-upgrade', results: [], error: 'post-upgrade hooks not run: x' },
        },
      },
      track,
      now,
    );
    expect(held.summary).toMatchObject({ result: 'Failed', errors: ['post-upgrade hooks not run: x'] });
    expect(held.status?.status.helmHooksRevision).toBeUndefined();
  });

  it('says hooks that ran for this release before are not run again', () => {
    const done = helmHooks(hooks, policies, release, at(B, run.revision)).run as HookRun;
    const c = conclude(outcomes({}, done), track, now);
    expect(conditionOf(c, 'Parsed')?.message).toMatch(
      /; hooks not run again: they ran for this commit and spec\.helm \(pre-upgrade Job\/migrate; post-upgrade Job\/notify\)$/,
    );
  });
});
