import { describe, expect, it } from 'vitest';
import { becameReady } from '../../../lib/depends/becameReady';
import {
  type DependencyView,
  dependencyReadiness,
  intendedCommit,
} from '../../../lib/depends/dependencyReadiness';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import type { TrackObject } from '../../../lib/track/trackObject';

const [a, b] = ['a'.repeat(40), 'b'.repeat(40)];
const ready = (
  over: Partial<{ status: string; reason: string; message: string; observedGeneration: number }> = {},
) => ({
  type: 'Ready',
  status: 'True',
  reason: 'ReconciliationSucceeded',
  message: `applied ${a}`,
  observedGeneration: 2,
  ...over,
});
const dep = (
  status: DependencyView['status'],
  spec: Partial<DependencyView['spec']> = {},
): DependencyView => ({
  metadata: { generation: 2 },
  spec: { reference: 'main', ...spec },
  status,
});

describe('dependencyReadiness', () => {
  it('is ready when Ready=True, the generation is observed and the last applied commit is the intended one', () => {
    expect(
      dependencyReadiness(dep({ observedGeneration: 2, lastAppliedCommit: a, conditions: [ready()] }), a),
    ).toEqual({ ready: true, commit: a });
  });

  it('is not ready at an older commit than intended, and says it is behind', () => {
    expect(
      dependencyReadiness(dep({ observedGeneration: 2, lastAppliedCommit: a, conditions: [ready()] }), b),
    ).toEqual({ ready: false, reason: `Ready at ${a}, not yet at ${b}`, behind: true });
  });

  it('withheld (a ClusterGitTrack seen from a tenant), names no commit and no generation', () => {
    const withheld = { withheld: true };
    expect(
      dependencyReadiness(
        dep({ observedGeneration: 2, lastAppliedCommit: a, conditions: [ready()] }),
        b,
        withheld,
      ),
    ).toEqual({
      ready: false,
      reason: 'Ready, but not yet at the commit it is meant to be at',
      behind: true,
    });
    expect(
      dependencyReadiness(
        dep({ observedGeneration: 1, lastAppliedCommit: a, conditions: [ready()] }),
        a,
        withheld,
      ),
    ).toEqual({ ready: false, reason: 'its current generation is not reconciled yet' });
  });

  it('is not ready before its first reconcile, at an unobserved generation, or when not Ready', () => {
    expect(dependencyReadiness(dep(undefined), a)).toEqual({ ready: false, reason: 'not reconciled yet' });
    expect(
      dependencyReadiness(dep({ observedGeneration: 1, lastAppliedCommit: a, conditions: [ready()] }), a),
    ).toEqual({ ready: false, reason: 'generation 2 not reconciled yet (observed 1)' });
    expect(
      dependencyReadiness(
        dep({ observedGeneration: 2, lastAppliedCommit: a, conditions: [ready({ observedGeneration: 1 })] }),
        a,
      ).ready,
    ).toBe(false);
    expect(
      dependencyReadiness(
        dep({
          observedGeneration: 2,
          lastAppliedCommit: a,
          conditions: [ready({ status: 'False', reason: 'ParseFailed', message: 'x.yaml:3: bad\nmore' })],
        }),
        a,
      ),
    ).toEqual({ ready: false, reason: 'not Ready (ParseFailed: x.yaml:3: bad)' });
    // A ClusterGitTrack's own message is not shown on a tenant's GitTrack: only its reason.
    expect(
      dependencyReadiness(
        dep({
          observedGeneration: 2,
          lastAppliedCommit: a,
          conditions: [ready({ status: 'False', reason: 'ParseFailed', message: 'x.yaml:3: bad' })],
        }),
        a,
        { withheld: true },
      ),
    ).toEqual({ ready: false, reason: 'not Ready (ParseFailed)' });
  });

  it('the intended commit is the pin, else a full-SHA reference, else unknown (the head is listed)', () => {
    expect(intendedCommit({ reference: 'main', pin: { commit: a } })).toBe(a);
    expect(intendedCommit({ reference: b.toUpperCase() })).toBe(b);
    expect(intendedCommit({ reference: 'main' })).toBeUndefined();
  });
});

describe('becameReady', () => {
  const track = (status: TrackObject['status'], generation = 2) =>
    ({ metadata: { generation }, status }) as unknown as TrackObject;
  const summary = (result: ReconcileSummary['result'], commit = a) =>
    ({ result, commit }) as ReconcileSummary;
  const readyStatus = {
    observedGeneration: 2,
    lastAppliedCommit: a,
    conditions: [ready()],
  } as TrackObject['status'];

  it('only a succeeded run that changed the Ready commit, generation or state invokes dependents', () => {
    expect(becameReady(track(readyStatus), summary('Succeeded'))).toBe(false);
    expect(becameReady(track(readyStatus), summary('Succeeded', b))).toBe(true);
    expect(becameReady(track(readyStatus, 3), summary('Succeeded'))).toBe(true);
    expect(becameReady(track(undefined), summary('Succeeded'))).toBe(true);
    expect(becameReady(track(undefined), summary('Failed'))).toBe(false);
    expect(becameReady(track(undefined), summary('Waiting'))).toBe(false);
  });
});
