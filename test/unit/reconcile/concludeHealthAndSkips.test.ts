import { describe, expect, it } from 'vitest';
import type { Change } from '../../../lib/apply/change';
import type { PlannedObject } from '../../../lib/plan/plannedObject';
import { conclude } from '../../../lib/reconcile/conclude';
import type { HealthOutcome, RunOutcomes } from '../../../lib/reconcile/outcomes';
import type { TrackCondition, TrackObject } from '../../../lib/track/trackObject';
import type { TrackerStatusModes } from '../../../lib/tracker/patchTrackerStatus';

// conclude() on health that gates a run (spec.healthTimeout) and on manifests skipped for safety.

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const now = new Date('2026-12-02T12:00:00Z');
const ref = { kind: 'GitTrack', namespace: 'shop', name: 'web' } as const;
const statusModes = { GitTrackObject: 'object', ClusterGitTrackObject: 'object' } as TrackerStatusModes;

function track(spec: Partial<TrackObject['spec']> = {}, status?: TrackObject['status']): TrackObject {
  return {
    apiVersion: 'lightkeeper.dev/v1alpha1',
    kind: 'GitTrack',
    metadata: { name: 'web', namespace: 'shop', uid: 'u1', generation: 2 },
    spec: { repository: 'https://git.example/shop.git', reference: 'main', ...spec },
    ...(status ? { status } : {}),
  };
}

const unchanged = (subject: string): Change => ({ subject, action: 'unchanged' });

function run(commit: string, changes: Change[], extra: Partial<RunOutcomes> = {}): RunOutcomes {
  return {
    request: { track: ref, reason: 'push' },
    choice: { reference: 'main', followsPin: false },
    source: {
      state: 'read',
      commit,
      files: changes.length,
      manifests: changes.map(() => ({}) as never),
      errors: [],
    },
    plan: { planned: changes.map(() => ({}) as PlannedObject), failed: [], ignored: [] },
    apply: { changes, notTaken: 0, statusModes, trackerConditions: undefined },
    prune: { state: 'pruned', changes: [] },
    writes: { objects: 0, health: 0, status: 0 },
    ...extra,
  };
}

const timedOut: HealthOutcome = {
  state: 'assessed',
  health: {
    healthy: 1,
    progressing: 0,
    failed: 1,
    of: 2,
    unhealthy: ['Deployment/shop/web: not ready within spec.healthTimeout 30s'],
  },
  finding: { total: 2, more: 0, allTimedOut: true },
};

const conditionOf = (c: ReturnType<typeof conclude>, type: string) =>
  ((c.status?.status.conditions ?? []) as TrackCondition[]).find((x) => x.type === type);

describe('conclude: health that gates the run', () => {
  const changes = [unchanged('Deployment/shop/web'), unchanged('ConfigMap/shop/c')];

  it('fails a run that waited for health (spec.healthTimeout) and saw a child time out', () => {
    const c = conclude(run(B, changes, { health: timedOut }), track({ healthTimeout: '30s' }), now);
    expect(c.summary.result).toBe('Failed');
    expect(c.summary.errors).toEqual([
      'health check failed: healthy 1 of 2, failed 1; Deployment/shop/web: not ready within spec.healthTimeout 30s',
    ]);
    expect(conditionOf(c, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'HealthCheckFailed',
      message: `applied ${B}; health check failed: healthy 1 of 2, failed 1\nDeployment/shop/web: not ready within spec.healthTimeout 30s`,
    });
    expect(conditionOf(c, 'Healthy')).toMatchObject({ status: 'False', reason: 'HealthCheckTimeout' });
    expect(conditionOf(c, 'Applied')).toMatchObject({ status: 'True', reason: 'Applied' });
    // The commit runs in full: it is the last applied, not a partial one.
    expect(c.status?.status).toMatchObject({ lastAppliedCommit: B });
    expect(c.status?.status.partiallyAppliedCommit).toBeNull();
    expect(c.events.map((e) => [e.type, e.reason])).toEqual([['Warning', 'ReconcileFailed']]);
  });

  it('keeps a run without spec.healthTimeout Succeeded: health observed, not gating', () => {
    const c = conclude(run(B, changes, { health: timedOut }), track(), now);
    expect(c.summary.result).toBe('Succeeded');
    expect(c.summary.errors).toEqual([]);
    expect(conditionOf(c, 'Ready')).toMatchObject({ status: 'True', reason: 'ReconciliationSucceeded' });
    expect(conditionOf(c, 'Healthy')).toMatchObject({ status: 'False' });
  });

  it('keeps a failed run failed for its own errors, health aside', () => {
    const failed = [{ subject: 'ConfigMap/shop/c', action: 'failed', message: 'c: refused' } as Change];
    const c = conclude(
      run(B, failed, { health: timedOut, prune: { state: 'skipped', errors: 1 } }),
      track({ healthTimeout: '30s' }),
      now,
    );
    expect(conditionOf(c, 'Ready')).toMatchObject({ status: 'False', reason: 'ReconciliationFailed' });
    expect(c.summary.errors).toEqual(['c: refused']);
  });

  it('does not call a track that applied nothing "healthy 0 of 0": Healthy True, reason NoObjects', () => {
    const none: HealthOutcome = {
      state: 'assessed',
      health: { healthy: 0, progressing: 0, failed: 0, of: 0, unhealthy: [] },
      finding: { total: 0, more: 0, allTimedOut: true },
    };
    const c = conclude(run(B, [], { health: none }), track({ healthTimeout: '30s' }), now);
    expect(c.summary.result).toBe('Succeeded');
    expect(conditionOf(c, 'Healthy')).toMatchObject({
      status: 'True',
      reason: 'NoObjects',
      message: 'no objects of this track to assess',
    });
  });
});

describe('conclude: manifests skipped for safety', () => {
  const ignored = [
    {
      path: 'ns.yaml',
      object: 'Namespace/other',
      reason: 'a GitTrack cannot manage a cluster-scoped resource',
    },
    ...Array.from({ length: 6 }, (_, i) => ({
      path: `cm${i}.yaml`,
      object: `ConfigMap/other/c${i}`,
      reason: 'namespace other is not managed by this GitTrack',
    })),
  ];
  const skipping = (commit: string) =>
    run(commit, [unchanged('ConfigMap/shop/a')], {
      plan: { planned: [{} as PlannedObject], failed: [], ignored },
    });

  it('keeps Ready True with its own reason, names the first skips, and warns once', () => {
    const c = conclude(skipping(B), track(), now);
    expect(c.summary.result).toBe('Succeeded');
    const ready = conditionOf(c, 'Ready');
    expect(ready).toMatchObject({ status: 'True', reason: 'ReconciliationSucceededWithSkips' });
    expect(ready?.message.split('\n')).toEqual([
      `applied ${B}; skipped 7 objects this track may not apply:`,
      'Namespace/other (a GitTrack cannot manage a cluster-scoped resource)',
      ...[0, 1, 2, 3].map((i) => `ConfigMap/other/c${i} (namespace other is not managed by this GitTrack)`),
      '…and 2 more',
    ]);
    const warnings = c.events.filter((e) => e.reason === 'SkippedForSafety');
    expect(warnings).toEqual([
      {
        type: 'Warning',
        reason: 'SkippedForSafety',
        message: `${B}: skipped 7 objects this track may not apply: Namespace/other (a GitTrack cannot manage a cluster-scoped resource), ${[0, 1, 2, 3].map((i) => `ConfigMap/other/c${i} (namespace other is not managed by this GitTrack)`).join(', ')}, …and 2 more`,
      },
    ]);
  });

  it('does not repeat the Warning on a sweep that changed nothing, and says it again when the skips change', () => {
    const first = conclude(skipping(B), track(), now);
    const after = track(
      {},
      {
        lastAppliedCommit: B,
        conditions: first.status?.status.conditions as TrackCondition[],
      },
    );
    expect(conclude(skipping(B), after, now).events).toEqual([]);
    expect(conclude(skipping(A), after, now).events.map((e) => e.reason)).toContain('SkippedForSafety');
  });

  it('keeps the plain reason and no Warning when nothing was skipped', () => {
    const c = conclude(run(B, [unchanged('ConfigMap/shop/a')]), track(), now);
    expect(conditionOf(c, 'Ready')).toMatchObject({
      reason: 'ReconciliationSucceeded',
      message: `applied ${B}`,
    });
    expect(c.events.filter((e) => e.reason === 'SkippedForSafety')).toEqual([]);
  });
});
