import { describe, expect, it } from 'vitest';
import type { ChangedFiles } from '../../../lib/git/readChangedFiles';
import { behindDependencyEvents } from '../../../lib/lambda/behindDependencyEvents';
import { dependentEvents } from '../../../lib/lambda/dependentEvents';
import { startSweep } from '../../../lib/lambda/startSweep';
import { incrementalGate } from '../../../lib/reconcile/incrementalGate';
import type { ReconcileRequest, ReconcileSummary } from '../../../lib/reconcile/types';
import type { TrackObject } from '../../../lib/track/trackObject';

const C0 = 'a'.repeat(40);
const C1 = 'b'.repeat(40);
const ref = { kind: 'GitTrack', name: 'web', namespace: 'shop' } as const;

function track(
  status: Partial<NonNullable<TrackObject['status']>> = {},
  spec: Partial<TrackObject['spec']> = {},
) {
  return {
    apiVersion: 'lightkeeper.dev/v1alpha1',
    kind: 'GitTrack',
    metadata: { name: 'web', namespace: 'shop', uid: 'u1', generation: 3 },
    spec: { repository: 'https://git.example/shop.git', reference: 'main', ...spec },
    status: {
      lastAppliedCommit: C0,
      lastAttemptedCommit: C0,
      lastAppliedGeneration: 3,
      objectsDiscovered: 10,
      objectsPlanned: 10,
      objectsIgnored: 0,
      conditions: [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded', message: '' }],
      ...status,
    },
  } as TrackObject;
}

const push: ReconcileRequest = { track: ref, reason: `push 1234 ${C1}` };
const files = (names: string[] = ['a.yaml']): ChangedFiles => ({
  names: { from: names, to: names },
  after: [],
  before: [],
  paths: [],
  fileAt: async () => undefined,
});
const gate = (
  t: TrackObject,
  request: ReconcileRequest = push,
  diff?: Parameters<typeof incrementalGate>[1],
) => incrementalGate({ track: t, request, commit: C1, maxFiles: undefined }, diff);

describe('incrementalGate', () => {
  it('reads the diff of a push to a plain-files track that succeeded at C0 under the same spec', () => {
    expect(gate(track())).toEqual({ kind: 'diff', from: C0 });
    const diff = files();
    expect(gate(track(), push, diff)).toEqual({ kind: 'incremental', from: C0, files: diff });
  });

  it.each<[string, TrackObject, ReconcileRequest?]>([
    ['no commit applied', track({ lastAppliedCommit: undefined })],
    ['the same commit (a no-op)', track({ lastAppliedCommit: C1, lastAttemptedCommit: C1 })],
    ['a commit partly applied', track({ partiallyAppliedCommit: 'c'.repeat(40) })],
    ['a later attempt', track({ lastAttemptedCommit: 'c'.repeat(40) })],
    ['no applied generation (written before this field)', track({ lastAppliedGeneration: undefined })],
    ['a spec changed since C0', track({ lastAppliedGeneration: 2 })],
    [
      'a last run not Ready',
      track({
        conditions: [{ type: 'Ready', status: 'False', reason: 'x', message: '', lastTransitionTime: '' }],
      }),
    ],
    ['no counters', track({ objectsPlanned: undefined })],
    ['a chart', track({}, { helm: { chart: 'charts/web' } as never })],
    ['a health timeout', track({}, { healthTimeout: '2m' })],
    ['a drift sweep', track(), { track: ref, mode: 'drift', reason: 'sweep' }],
    ['a continuation', track(), { track: ref, continuation: true, commit: C1, reason: 'push, continued' }],
    ['a replay of a named commit', track(), { track: ref, commit: C1, reason: 'replay by alice' }],
    ['lightkeeper reconcile', track(), { track: ref, reason: 'lightkeeper reconcile' }],
  ])('checks the whole track after %s', (_, t, request) => {
    expect(gate(t, request ?? push).kind).toBe('whole');
  });

  it('checks the whole track when the reconciler turned it off', () => {
    expect(incrementalGate({ track: track(), request: push, commit: C1, maxFiles: 0 }).kind).toBe('whole');
  });

  it('checks the whole track for the runs the sweep, a request and a dependency start', async () => {
    const reasons: string[] = [];
    const collect = async (e: { reason: string }) => {
      reasons.push(e.reason);
    };
    const listed = { ref, spec: {}, generation: 3, observedGeneration: 2 } as never;
    await startSweep([listed], collect, { scope: 'all' });
    await startSweep([listed], collect, { scope: 'unobserved' });
    const summary = {
      track: ref,
      commit: C1,
      result: 'Waiting',
      dependents: [{ track: ref, sameRepository: false }],
      waitingFor: [{ track: ref, reason: 'behind', behind: true }],
    } as unknown as ReconcileSummary;
    const event = { track: ref, mode: 'apply', reason: `push 1 ${C1}` } as const;
    for (const e of dependentEvents(event, summary)) reasons.push(e.reason);
    const config = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'IncludeNamespaced' } as const;
    for (const e of behindDependencyEvents(config, event, summary)) reasons.push(e.reason);
    reasons.push('requested at 2026-12-02T18:00:00Z');
    expect(reasons.length).toBeGreaterThanOrEqual(4);
    for (const reason of reasons.filter((r) => r !== 'sweep'))
      expect(gate(track(), { track: ref, reason }).kind, reason).toBe('whole');
  });

  it('checks the whole track when the diff is unreadable, too large, or a kustomization renders', () => {
    expect(gate(track(), push, 'unreadable').kind).toBe('whole');
    expect(gate(track(), push, 'tooMany')).toEqual({ kind: 'whole', why: 'more than 500 files changed' });
    expect(gate(track(), push, files(['kustomization.yaml'])).kind).toBe('whole');
    const before = { ...files(), names: { from: ['Kustomization'], to: ['a.yaml'] } };
    expect(gate(track(), push, before).kind).toBe('whole');
    // Rendering off: a kustomization file is no object, the others are plain files.
    const off = track({}, { kustomize: { enabled: false } });
    expect(gate(off, push, files(['kustomization.yaml'])).kind).toBe('incremental');
  });
});
