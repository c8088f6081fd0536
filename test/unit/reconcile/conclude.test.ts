import { describe, expect, it } from 'vitest';
import type { Change } from '../../../lib/apply/change';
import type { PlannedObject } from '../../../lib/plan/plannedObject';
import { conclude } from '../../../lib/reconcile/conclude';
import type { HelmSourceReport, RunOutcomes, SourceOutcome } from '../../../lib/reconcile/outcomes';
import type { TrackCondition, TrackObject } from '../../../lib/track/trackObject';
import type { TrackerStatusModes } from '../../../lib/tracker/patchTrackerStatus';

// conclude() from fixtures: each phase's outcome as data, no server.

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const now = new Date('2026-12-02T12:00:00Z');
const earlier = '2026-12-01T08:00:00Z';
const ref = { kind: 'GitTrack', namespace: 'shop', name: 'web' } as const;

const condition = (type: string, status: TrackCondition['status'], reason: string): TrackCondition => ({
  type,
  status,
  reason,
  message: '',
  lastTransitionTime: earlier,
});

function trackWith(status?: TrackObject['status'], spec: Partial<TrackObject['spec']> = {}): TrackObject {
  return {
    apiVersion: 'lightkeeper.dev/v1alpha1',
    kind: 'GitTrack',
    metadata: { name: 'web', namespace: 'shop', uid: 'u1', generation: 2 },
    spec: { repository: 'https://git.example/shop.git', reference: 'main', ...spec },
    ...(status ? { status } : {}),
  };
}

const readyAt = (commit: string) =>
  trackWith({
    observedGeneration: 2,
    lastAppliedCommit: commit,
    conditions: [condition('Ready', 'True', 'ReconciliationSucceeded')],
  });

const planned = (n: number) => Array.from({ length: n }, () => ({}) as PlannedObject);
const change = (action: Change['action'], subject: string, message?: string): Change => ({
  subject,
  action,
  ...(message ? { message } : {}),
});
const statusModes = { GitTrackObject: 'object', ClusterGitTrackObject: 'object' } as TrackerStatusModes;

const read = (commit: string, objects: number, errors: string[] = []): SourceOutcome => ({
  state: 'read',
  commit,
  files: objects,
  manifests: Array.from({ length: objects }, () => ({}) as never),
  errors,
});

/** A run that fetched and parsed `commit`, planned `n` objects and applied them as `changes` say. */
function applied(commit: string, changes: Change[], extra: Partial<RunOutcomes> = {}): RunOutcomes {
  return {
    request: { track: ref, reason: 'push' },
    choice: { reference: 'main', followsPin: false },
    source: read(commit, changes.length),
    plan: { planned: planned(changes.length), failed: [], ignored: [] },
    apply: { changes, notTaken: 0, statusModes, trackerConditions: undefined },
    prune: { state: 'pruned', changes: [] },
    writes: { objects: changes.filter((c) => c.action !== 'unchanged').length, health: 0, status: 0 },
    ...extra,
  };
}

const conditionOf = (c: ReturnType<typeof conclude>, type: string) =>
  ((c.status?.status.conditions ?? []) as TrackCondition[]).find((x) => x.type === type);

describe('conclude: the Ready ladder', () => {
  it('succeeds a run that applied everything: Ready True, one Normal Event, lastAppliedCommit moves', () => {
    const c = conclude(
      applied(B, [change('created', 'ConfigMap/shop/a'), change('unchanged', 'ConfigMap/shop/b')]),
      readyAt(A),
      now,
    );
    expect(c.summary).toMatchObject({
      result: 'Succeeded',
      commit: B,
      counts: { applied: 1, inSync: 2, pruned: 0, failed: 0 },
      deployed: { extent: 'full', objects: 2, of: 2 },
      errors: [],
      writes: { objects: 1 },
    });
    expect(conditionOf(c, 'Ready')).toMatchObject({
      status: 'True',
      reason: 'ReconciliationSucceeded',
      message: `applied ${B}`,
    });
    expect(conditionOf(c, 'Applied')).toMatchObject({ status: 'True', message: `2 objects match ${B}` });
    expect(conditionOf(c, 'Pruned')).toMatchObject({
      status: 'True',
      reason: 'Pruned',
      message: 'pruned 0 objects',
    });
    expect(c.status?.status).toMatchObject({
      lastAppliedCommit: B,
      lastAppliedShortCommit: 'bbbbbbb',
      // The spec generation B was applied under: an incremental run of a later push needs the same.
      lastAppliedGeneration: 2,
      lastAttemptedCommit: B,
      objectsApplied: 1,
    });
    expect(c.events).toEqual([
      {
        type: 'Normal',
        reason: 'ReconcileSucceeded',
        message: `${B} (push): 1 applied, 2 in sync, 0 ignored, 0 pruned`,
      },
    ]);
  });

  it('records no Event for a no-op on a track that stays Ready at the same commit', () => {
    const c = conclude(applied(A, [change('unchanged', 'ConfigMap/shop/a')]), readyAt(A), now);
    expect(c.summary.result).toBe('Succeeded');
    expect(c.events).toEqual([]);
  });

  it('fails a run with a failed object, lists it in Ready, and skips the prune', () => {
    const changes = [
      change('created', 'ConfigMap/shop/a'),
      change('failed', 'ConfigMap/shop/b', 'b: refused'),
    ];
    const c = conclude(applied(B, changes, { prune: { state: 'skipped', errors: 1 } }), readyAt(A), now);
    expect(c.summary).toMatchObject({
      result: 'Failed',
      errors: ['b: refused'],
      deployed: { extent: 'partial' },
    });
    expect(conditionOf(c, 'Applied')).toMatchObject({
      reason: 'PartiallyApplied',
      message: `applied 1 of 2 objects at ${B}; 1 failed:\nb: refused`,
    });
    expect(conditionOf(c, 'Pruned')).toMatchObject({
      reason: 'PruneSkipped',
      message: 'nothing pruned: this reconcile had 1 errors',
    });
    expect(conditionOf(c, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ReconciliationFailed',
      message: 'b: refused',
    });
    expect(c.status?.status).toMatchObject({
      lastAppliedCommit: A,
      lastAppliedShortCommit: 'aaaaaaa',
      partiallyAppliedCommit: B,
      partiallyAppliedShortCommit: 'bbbbbbb',
    });
    expect(c.events[0]).toMatchObject({
      type: 'Warning',
      reason: 'ReconcileFailed',
      message: `${B} (push): b: refused`,
    });
  });

  it('says an ownership conflict alone is for the other owner to fix', () => {
    const changes = [
      change('created', 'ConfigMap/shop/a'),
      change('conflict', 'ConfigMap/shop/b', 'b: owned by GitTrack/shop/other'),
    ];
    const c = conclude(applied(B, changes), readyAt(A), now);
    expect(c.summary).toMatchObject({ result: 'Failed', errors: [], counts: { conflicts: 1 } });
    expect(conditionOf(c, 'Ready')).toMatchObject({
      reason: 'OwnershipConflict',
      message: 'b: owned by GitTrack/shop/other',
    });
    expect(c.events.map((e) => e.reason)).toEqual(['OwnershipConflict']);
  });

  it('refuses to prune everything without allowEmpty, and says so as an error', () => {
    const c = conclude(applied(B, [], { prune: { state: 'refused', stale: 3 } }), readyAt(A), now);
    const refusal = `refusing to prune all 3 tracked objects: ${B} has no manifests for this track (set spec.allowEmpty to allow)`;
    expect(c.summary).toMatchObject({ result: 'Failed', errors: [refusal] });
    expect(conditionOf(c, 'Pruned')).toMatchObject({ reason: 'PruneRefused', message: refusal });
  });

  it("collapses a GitTrack's refused deletions in Pruned into the one line that names the fix", () => {
    const refused = (kind: string, name: string) =>
      change(
        'failed',
        `${kind}/shop/${name}`,
        `delete ${kind}/shop/${name}: ${kind.toLowerCase()}s "${name}" is forbidden: User "system:serviceaccount:shop:default" cannot delete resource "${kind.toLowerCase()}s" in API group "" in the namespace "shop"`,
      );
    const prune = { state: 'pruned' as const, changes: [refused('ConfigMap', 'a'), refused('Secret', 'b')] };
    const c = conclude(applied(B, [], { prune }), readyAt(A), now);
    const pruned = conditionOf(c, 'Pruned');
    expect(pruned?.reason).toBe('PruneFailed');
    expect(pruned?.message.split('\n')).toEqual([
      'GitTrack shop/web acts as ServiceAccount shop/default, which may not delete configmaps, delete secrets in shop: grant it, e.g. kubectl create rolebinding web-deployer -n shop --clusterrole=edit --serviceaccount=shop:default, or set spec.serviceAccountName',
    ]);
  });

  it('reports an API failure mid-way as ApplyFailed, after the apply failures', () => {
    const c = conclude(
      applied(B, [change('created', 'ConfigMap/shop/a')], {
        prune: undefined,
        applyError: 'LIST failed: 503',
      }),
      readyAt(A),
      now,
    );
    expect(c.summary).toMatchObject({ result: 'Failed', errors: ['LIST failed: 503'] });
    expect(conditionOf(c, 'Applied')).toMatchObject({ reason: 'ApplyFailed', message: 'LIST failed: 503' });
  });

  it('continues a run out of time: Progressing, prune deferred, no lastAppliedCommit', () => {
    const outcomes = applied(B, [change('created', 'ConfigMap/shop/a')], { prune: undefined });
    outcomes.plan = { planned: planned(3), failed: [], ignored: [] };
    outcomes.apply = {
      changes: [change('created', 'ConfigMap/shop/a')],
      notTaken: 2,
      statusModes,
      trackerConditions: undefined,
    };
    const c = conclude(outcomes, readyAt(A), now);
    const message = `applied 1 of 3 objects at ${B}, continuing: the time budget ran out with 2 objects to go`;
    expect(c.summary).toMatchObject({
      result: 'Continuing',
      deployed: { extent: 'partial', objects: 1, of: 3 },
    });
    expect(conditionOf(c, 'Applied')).toMatchObject({ reason: 'Progressing', message });
    expect(conditionOf(c, 'Pruned')).toMatchObject({ reason: 'PruneDeferred' });
    expect(conditionOf(c, 'Ready')).toMatchObject({ status: 'False', reason: 'Progressing', message });
    expect(c.status?.status.lastAppliedCommit).toBe(A);
    expect(c.events).toEqual([
      { type: 'Normal', reason: 'ReconcileContinuing', message: `${message} (push)` },
    ]);
  });
});

describe('conclude: a commit that does not parse', () => {
  it('is broken: nothing applied or pruned, the counters keep describing what the cluster runs', () => {
    const track = trackWith({ lastAppliedCommit: A, partiallyAppliedCommit: 'c'.repeat(40), conditions: [] });
    const c = conclude(
      {
        request: { track: ref },
        choice: { reference: 'main', followsPin: false },
        source: read(B, 0, ['bad.yaml:3: not YAML']),
        writes: { objects: 0, health: 0, status: 1 },
      },
      track,
      now,
    );
    expect(c.summary).toMatchObject({
      result: 'Failed',
      errors: ['bad.yaml:3: not YAML'],
      deployed: { extent: 'broken', objects: 0 },
    });
    expect(conditionOf(c, 'Parsed')).toMatchObject({ status: 'False', reason: 'ParseFailed' });
    expect(conditionOf(c, 'Applied')).toMatchObject({
      reason: 'ParseFailed',
      message: `nothing of ${B} applied: it does not parse; the cluster still runs ${A} and part of ${'c'.repeat(40)}`,
    });
    expect(conditionOf(c, 'Ready')).toMatchObject({
      reason: 'ParseFailed',
      message: `nothing of ${B} applied:\nbad.yaml:3: not YAML`,
    });
    expect(Object.keys(c.status?.status ?? {}).sort()).toEqual([
      'conditions',
      'lastAppliedCommit',
      'lastAppliedGeneration',
      'lastAppliedShortCommit',
      'lastAttemptedCommit',
      'lastSyncTime',
      'observedGeneration',
    ]);
  });

  it('is broken when its tree cannot be read, fetched all the same', () => {
    const source: SourceOutcome = { state: 'unreadable', commit: B, error: 'tree entry ".." refused' };
    const c = conclude(
      { request: { track: ref }, source, writes: { objects: 0, health: 0, status: 0 } },
      trackWith(),
      now,
    );
    expect(conditionOf(c, 'Fetched')).toMatchObject({ status: 'True', message: `fetched ${B}` });
    expect(conditionOf(c, 'Ready')).toMatchObject({ reason: 'ParseFailed' });
  });
});

describe('conclude: a fetch that failed', () => {
  const failed = (gitFailure: boolean, credentialsFailed?: true): RunOutcomes => ({
    request: { track: ref, reason: 'sweep' },
    choice: { reference: 'main', followsPin: false },
    source: {
      state: 'unfetched',
      error: 'connection refused',
      gitFailure,
      ...(credentialsFailed ? { credentialsFailed } : {}),
    },
    writes: { objects: 0, health: 0, status: 0 },
  });

  it('backs the track off when the git server failed, and says so in Ready', () => {
    const c = conclude(failed(true), readyAt(A), now);
    const retryAfter = '2026-12-02T12:05:00.000Z';
    expect(c.summary).toMatchObject({
      result: 'Failed',
      errors: ['connection refused'],
      fetchBackoff: { failures: 1, retryAfter },
    });
    expect(c.summary.commit).toBeUndefined();
    expect(conditionOf(c, 'Fetched')).toMatchObject({ status: 'False', reason: 'FetchFailed' });
    expect(conditionOf(c, 'Ready')?.message).toBe(
      `connection refused\nfetch failed once; the sweep retries after ${retryAfter}`,
    );
    expect(c.status?.status.fetchBackoff).toEqual({ failures: 1, retryAfter });
  });

  it('does not back off a failure of the track itself (its Secret)', () => {
    const c = conclude(failed(false, true), readyAt(A), now);
    expect(c.summary.fetchBackoff).toBeUndefined();
    expect(c.status?.status).not.toHaveProperty('fetchBackoff');
  });

  it('clears the backoff once a run fetched', () => {
    const track = {
      ...readyAt(A),
      status: { ...readyAt(A).status, fetchBackoff: { failures: 2, retryAfter: earlier } },
    };
    const c = conclude(applied(A, [change('unchanged', 'ConfigMap/shop/a')]), track, now);
    expect(c.status?.status.fetchBackoff).toBeNull();
  });
});

describe('conclude: runs that apply nothing', () => {
  it('writes no status for a run that lost its lease, one Warning naming why', () => {
    const c = conclude(
      applied(B, [change('created', 'ConfigMap/shop/a')], {
        prune: undefined,
        leaseLost: 'lease taken by r2',
      }),
      readyAt(A),
      now,
    );
    expect(c.summary).toMatchObject({ result: 'Aborted', errors: ['lease taken by r2'] });
    expect(c.status).toBeUndefined();
    expect(c.events).toEqual([
      {
        type: 'Warning',
        reason: 'ReconcileAborted',
        message: `reconcile of ${B} stopped: lease taken by r2`,
      },
    ]);
  });

  it('stands a superseded continuation down the same way', () => {
    const c = conclude(
      {
        request: { track: ref, commit: B, continuation: true },
        superseded: 'superseded by c',
        writes: { objects: 0, health: 0, status: 0 },
      },
      readyAt(A),
      now,
    );
    expect(c.summary).toMatchObject({ result: 'Aborted', errors: ['superseded by c'] });
    expect(c.status).toBeUndefined();
  });

  it('waits for a dependency: Waiting, the reason in Ready, the Event once', () => {
    const waiting: RunOutcomes = {
      request: { track: ref, reason: 'push' },
      dependencies: {
        state: 'waiting',
        waiting: [{ track: { kind: 'ClusterGitTrack', name: 'crds' }, reason: 'not Ready (ApplyFailed)' }],
      },
      writes: { objects: 0, health: 0, status: 0 },
    };
    const c = conclude(waiting, readyAt(A), now);
    const message =
      'waiting for ClusterGitTrack/crds: not Ready (ApplyFailed) (unblock: lightkeeper reconcile clustergittrack/crds)';
    expect(c.summary).toMatchObject({
      result: 'Waiting',
      heldBack: 'DependencyNotReady',
      waitingFor: [{ track: { name: 'crds' } }],
    });
    expect(conditionOf(c, 'Ready')).toMatchObject({ status: 'False', reason: 'DependencyNotReady', message });
    expect(Object.keys(c.status?.status ?? {}).sort()).toEqual([
      'conditions',
      'lastSyncTime',
      'observedGeneration',
    ]);
    expect(c.events).toEqual([
      { type: 'Normal', reason: 'DependencyNotReady', message: `${message} (push)` },
    ]);
    const again = trackWith({ conditions: [condition('Ready', 'False', 'DependencyNotReady')] });
    expect(conclude(waiting, again, now).events).toEqual([]);
  });

  it('fails a refused dependsOn with its reason', () => {
    const c = conclude(
      {
        request: { track: ref },
        dependencies: { state: 'refused', reason: 'DependencyCycle', detail: 'a → b → a' },
        writes: { objects: 0, health: 0, status: 0 },
      },
      readyAt(A),
      now,
    );
    expect(c.summary).toMatchObject({
      result: 'Failed',
      heldBack: 'DependencyCycle',
      errors: ['dependency cycle: a → b → a'],
    });
    expect(conditionOf(c, 'Ready')).toMatchObject({ reason: 'DependencyCycle' });
  });

  it('suspends: Ready False Suspended, said once', () => {
    const suspended: RunOutcomes = {
      request: { track: ref },
      suspended: true,
      writes: { objects: 0, health: 0, status: 0 },
    };
    const c = conclude(suspended, readyAt(A), now);
    expect(c.summary).toMatchObject({ result: 'Suspended' });
    expect(conditionOf(c, 'Ready')).toMatchObject({
      reason: 'Suspended',
      message: 'spec.suspend is true: nothing was reconciled',
    });
    expect(c.events.map((e) => e.reason)).toEqual(['Suspended']);
    expect(
      conclude(suspended, trackWith({ conditions: [condition('Ready', 'False', 'Suspended')] }), now).events,
    ).toEqual([]);
  });
});

describe('conclude: conditions and the pin', () => {
  it('keeps a condition’s lastTransitionTime while its status stays, and moves it when it changes', () => {
    const track = trackWith({
      lastAppliedCommit: A,
      conditions: [
        condition('Ready', 'True', 'ReconciliationSucceeded'),
        condition('Applied', 'True', 'Applied'),
      ],
    });
    const failed = applied(B, [change('failed', 'ConfigMap/shop/a', 'a: refused')], {
      prune: { state: 'skipped', errors: 1 },
    });
    const c = conclude(failed, track, now);
    expect(conditionOf(c, 'Ready')?.lastTransitionTime).toBe(now.toISOString());
    const same = conclude(applied(A, [change('unchanged', 'ConfigMap/shop/a')]), track, now);
    expect(conditionOf(same, 'Ready')?.lastTransitionTime).toBe(earlier);
    expect(((same.status?.status.conditions ?? []) as TrackCondition[]).map((x) => x.type)).toEqual([
      'Ready',
      'Fetched',
      'Parsed',
      'Applied',
      'Pruned',
    ]);
  });

  it('warns when a run follows a pin while the head moved on, and unpins the condition once the pin is gone', () => {
    const pin = { commit: A, by: 'alice' };
    const pinned = applied(A, [change('unchanged', 'ConfigMap/shop/a')], {
      request: { track: ref, reason: 'sweep' },
      choice: { reference: A, pin, followsPin: true },
      source: { ...read(A, 1), head: { commit: B } },
    });
    const c = conclude(pinned, readyAt(A), now);
    expect(c.summary.pin).toEqual({ ...pin, head: B });
    expect(conditionOf(c, 'Pinned')).toMatchObject({
      status: 'True',
      message: `pinned at ${A} by alice, head is ${B}`,
    });
    expect(c.events).toContainEqual({
      type: 'Warning',
      reason: 'PinnedBehindHead',
      message: `pinned at ${A} by alice, head is ${B}: sweep applied the pin, not main; \`lightkeeper unpin gittrack/web -n shop\` follows it again`,
    });
    const wasPinned = trackWith({
      lastAppliedCommit: A,
      conditions: [condition('Pinned', 'True', 'Pinned')],
    });
    const unpinned = conclude(applied(A, [change('unchanged', 'ConfigMap/shop/a')]), wasPinned, now);
    expect(conditionOf(unpinned, 'Pinned')).toMatchObject({
      status: 'False',
      reason: 'Unpinned',
      message: 'not pinned: following main',
    });
  });

  it('records the delivery it served, newest first', () => {
    const track = { ...readyAt(A), status: { ...readyAt(A).status, recentDeliveries: ['d1'] } };
    const c = conclude(applied(A, [], { request: { track: ref, delivery: 'd2' } }), track, now);
    expect(c.status?.status.recentDeliveries).toEqual(['d2', 'd1']);
  });
});

describe('conclude: the request annotation lightkeeper.dev/requestedAt', () => {
  const requested = (value: string, handled?: string): TrackObject => {
    const track = readyAt(A);
    return {
      ...track,
      metadata: { ...track.metadata, annotations: { 'lightkeeper.dev/requestedAt': value } },
      status: { ...track.status, ...(handled ? { lastHandledRequestedAt: handled } : {}) },
    };
  };

  it('records a time stamp as handled, as it is, and says nothing of it', () => {
    const c = conclude(
      applied(A, [change('unchanged', 'ConfigMap/shop/a')]),
      requested('2026-12-02T12:00:00Z'),
      now,
    );
    expect(c.status?.status.lastHandledRequestedAt).toBe('2026-12-02T12:00:00Z');
    expect(c.events).toEqual([]);
  });

  it('records a hostile value by its digest, and warns once without repeating the value', () => {
    const hostile = `2026-12-02\nReconcileSucceeded ${'x'.repeat(300_000)}`;
    const first = conclude(applied(A, [change('unchanged', 'ConfigMap/shop/a')]), requested(hostile), now);
    const handled = first.status?.status.lastHandledRequestedAt as string;
    expect(handled).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(first.events).toEqual([
      {
        type: 'Warning',
        reason: 'RequestedAtRefused',
        message: expect.stringContaining(
          `(300030 characters, more than 64): this reconcile handled it as ${handled}`,
        ),
      },
    ]);
    expect(JSON.stringify(first.status)).not.toContain('xxxx');
    expect(JSON.stringify(first.events)).not.toContain('xxxx');
    // The next run sees it handled: no second Warning.
    expect(
      conclude(applied(A, [change('unchanged', 'ConfigMap/shop/a')]), requested(hostile, handled), now)
        .events,
    ).toEqual([]);
  });

  it('records a request a suspended run answered, so the every-minute check stops asking', () => {
    const suspended: RunOutcomes = {
      request: { track: ref },
      suspended: true,
      writes: { objects: 0, health: 0, status: 0 },
    };
    const c = conclude(suspended, requested('2026-12-02T12:00:00Z'), now);
    expect(c.status?.status.lastHandledRequestedAt).toBe('2026-12-02T12:00:00Z');
  });
});

describe('conclude: a rendered Helm chart', () => {
  it('says the chart and release it rendered, and names every hook it did not apply', () => {
    const helm: HelmSourceReport = {
      chart: 'charts/podinfo',
      release: 'web',
      namespace: 'shop',
      hooks: [
        { subject: 'Pod/web-grpc-test-x', path: 'podinfo/templates/tests/grpc.yaml', events: ['test'] },
        {
          subject: 'Job/web-migrate',
          path: 'podinfo/templates/hooks/pre.yaml',
          events: ['pre-install', 'pre-upgrade'],
        },
      ],
      nondeterministic: [],
    };
    const run = applied(B, [change('created', 'Deployment/shop/web')]);
    const c = conclude(
      { ...run, source: { ...(run.source as object), helm } as SourceOutcome },
      readyAt(A),
      now,
    );
    expect(conditionOf(c, 'Parsed')).toMatchObject({
      status: 'True',
      message:
        '1 objects rendered by helm from charts/podinfo (release web in shop); 2 hooks not applied: Pod/web-grpc-test-x (test), Job/web-migrate (pre-install, pre-upgrade)',
    });
  });

  it('says RenderNondeterministic naming objects and fields, not values, and warns once per message', () => {
    const helm: HelmSourceReport = {
      chart: 'chart',
      release: 'db',
      namespace: 'shop',
      hooks: [],
      nondeterministic: [
        { subject: 'Secret/shop/db', fields: ['/data/password'] },
        { subject: 'chart/templates/many.yaml', fields: [] },
      ],
    };
    const run = applied(B, [change('created', 'Secret/shop/db')]);
    const outcomes = { ...run, source: { ...(run.source as object), helm } as SourceOutcome };
    const c = conclude(outcomes, readyAt(A), now);
    const parsed = conditionOf(c, 'Parsed');
    expect(parsed).toMatchObject({ status: 'True', reason: 'RenderNondeterministic' });
    expect(parsed?.message).toBe(
      '1 objects rendered by helm from chart (release db in shop); the chart renders differently each time (randAlphaNum, now, genCA): Secret/shop/db /data/password, chart/templates/many.yaml (renders different objects); these fields keep their live values until a new commit (set them with values, or spec.ignore them)',
    );
    expect(c.events.filter((e) => e.reason === 'RenderNondeterministic')).toEqual([
      { type: 'Warning', reason: 'RenderNondeterministic', message: parsed?.message },
    ]);
    // The next sweep of the same commit says the same: no second Warning.
    const track = readyAt(B);
    track.status = { ...track.status, conditions: [...(track.status?.conditions ?? []), parsed as never] };
    const again = conclude(outcomes, track, now);
    expect(again.events.filter((e) => e.reason === 'RenderNondeterministic')).toEqual([]);
    expect(conditionOf(c, 'Ready')).toMatchObject({ status: 'True' });
  });
});
