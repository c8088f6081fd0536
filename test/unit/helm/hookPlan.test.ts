import { describe, expect, it } from 'vitest';
import { resolveHelmPolicies } from '../../../lib/helm/helmPolicies';
import { hookDeletePolicies, planHooks } from '../../../lib/helm/hookPlan';
import type { ChartHook } from '../../../lib/helm/runHelmRender';

const hook = (
  name: string,
  events: string[],
  weight = 0,
  kind = 'Job',
  deletePolicies: string[] = [],
): ChartHook => ({
  path: `app/templates/${name}.yaml`,
  kind,
  name,
  events,
  weight,
  deletePolicies,
  yaml: `kind: ${kind}`,
});

// The render lists hooks as Helm sorts them by kind (ConfigMaps before Jobs).
const hooks = [
  hook('seed', ['pre-install'], 5, 'ConfigMap'),
  hook('b-config', ['pre-install', 'pre-upgrade'], -5, 'ConfigMap'),
  hook('migrate', ['pre-install', 'pre-upgrade'], -5),
  hook('a-first', ['pre-upgrade'], -5),
  hook('notify', ['post-install', 'post-upgrade'], 0),
  hook('smoke', ['test'], 0, 'Pod'),
  hook('cleanup', ['pre-delete'], 0),
];
const names = (stage: { hooks: ChartHook[] }) => stage.hooks.map((h) => `${h.kind}/${h.name}`);

describe('planHooks', () => {
  it('orders an install by weight, then name (a stable sort of the kind order), as Helm does', () => {
    const stages = planHooks(hooks, 'Run', false);
    expect(stages.pre.event).toBe('pre-install');
    expect(names(stages.pre)).toEqual(['ConfigMap/b-config', 'Job/migrate', 'ConfigMap/seed']);
    expect(stages.post.event).toBe('post-install');
    expect(names(stages.post)).toEqual(['Job/notify']);
    expect(stages.notRun.map((h) => h.subject)).toEqual(['Job/a-first', 'Pod/smoke', 'Job/cleanup']);
  });

  it('runs pre-upgrade hooks, never pre-install ones, once the track has applied', () => {
    const stages = planHooks(hooks, 'Run', true);
    expect(stages.pre.event).toBe('pre-upgrade');
    expect(names(stages.pre)).toEqual(['Job/a-first', 'ConfigMap/b-config', 'Job/migrate']);
    expect(names(stages.post)).toEqual(['Job/notify']);
    expect(stages.notRun.map((h) => h.subject)).toEqual(['ConfigMap/seed', 'Pod/smoke', 'Job/cleanup']);
  });

  it('runs nothing under Skip, and never a test hook', () => {
    const stages = planHooks(hooks, 'Skip', false);
    expect(stages.pre.hooks).toEqual([]);
    expect(stages.post.hooks).toEqual([]);
    expect(stages.notRun).toHaveLength(hooks.length);
    const run = planHooks(hooks, 'Run', false);
    expect([...run.pre.hooks, ...run.post.hooks].some((h) => h.events.includes('test'))).toBe(false);
  });

  it('defaults the delete policy to before-hook-creation, as Helm does', () => {
    expect(hookDeletePolicies(hook('a', ['pre-install']))).toEqual(['before-hook-creation']);
    expect(hookDeletePolicies(hook('a', ['pre-install'], 0, 'Job', ['hook-succeeded']))).toEqual([
      'hook-succeeded',
    ]);
  });
});

describe('resolveHelmPolicies', () => {
  it('defaults crds to CreateReplace and hooks to Skip', () => {
    expect(resolveHelmPolicies({})).toEqual({ ok: true, crds: 'CreateReplace', hooks: 'Skip' });
    expect(resolveHelmPolicies({ crds: 'Create', hooks: 'Run' })).toEqual({
      ok: true,
      crds: 'Create',
      hooks: 'Run',
    });
  });

  it('refuses a policy it does not know', () => {
    expect(resolveHelmPolicies({ crds: 'Replace' })).toEqual({
      ok: false,
      reason: 'spec.helm.crds must be one of CreateReplace, Create, Skip, not Replace',
    });
    expect(resolveHelmPolicies({ hooks: 'Always' })).toMatchObject({ ok: false });
  });
});
