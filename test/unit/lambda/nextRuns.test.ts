import { describe, expect, it } from 'vitest';
import { nextRuns } from '../../../lib/lambda/nextRuns';
import { pruneVerdict } from '../../../lib/reconcile/prunePhase';
import type { ReconcileEvent } from '../../../lib/reconcile/reconcileEvent';
import { summaryOf } from '../../support/reconcileSummary';

const head = 'c'.repeat(40);
const config = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'IncludeNamespaced' } as const;
const event: ReconcileEvent = {
  track: { kind: 'GitTrack', namespace: 'team', name: 'app' },
  mode: 'apply',
  reason: 'push d1',
  push: { after: head, delivery: 'd1' },
};
const run = (over: Parameters<typeof summaryOf>[0]) =>
  summaryOf({ track: event.track, commit: head, ...over });

describe('nextRuns: what the reconcile function starts after a run', () => {
  it('goes on with the same commit when the run ran out of time, and nothing else', () => {
    expect(nextRuns(config, event, run({ result: 'Continuing' }))).toEqual({
      continuation: { ...event, commit: head, continuation: true, reason: 'push d1, continued' },
      chained: [],
    });
  });

  it('starts the dependents of a track Ready anew, carrying the push only to the same repository', () => {
    const dependents = [
      { track: { kind: 'GitTrack', namespace: 'team', name: 'web' }, sameRepository: true },
      { track: { kind: 'GitTrack', namespace: 'team', name: 'db' }, sameRepository: false },
    ] as const;
    const next = nextRuns(config, event, run({ result: 'Succeeded', dependents: [...dependents] }));
    expect(next.continuation).toBeUndefined();
    expect(next.chained).toEqual([
      {
        track: dependents[0].track,
        mode: 'apply',
        reason: `GitTrack/team/app Ready at ${head} (push d1)`,
        push: { after: head },
      },
      { track: dependents[1].track, mode: 'apply', reason: `GitTrack/team/app Ready at ${head} (push d1)` },
    ]);
  });

  it('brings forward a dependency that is Ready but behind, not one that is merely not Ready', () => {
    const behind = {
      track: { kind: 'ClusterGitTrack', name: 'crds' },
      reason: 'Ready at a, not yet at b',
      behind: true,
    } as const;
    const failing = {
      track: { kind: 'ClusterGitTrack', name: 'base' },
      reason: 'not Ready (ApplyFailed)',
    } as const;
    const waiting = summaryOf({ track: event.track, result: 'Waiting', waitingFor: [behind, failing] });
    const next = nextRuns(config, event, waiting);
    expect(next).toEqual({
      chained: [{ track: behind.track, mode: 'apply', reason: 'GitTrack/team/app waits for it (push d1)' }],
    });
  });

  it('starts nothing after a run that failed or stopped', () => {
    expect(nextRuns(config, event, run({ result: 'Failed' }))).toEqual({ chained: [] });
    expect(nextRuns(config, event, run({ result: 'Aborted' }))).toEqual({ chained: [] });
  });
});

describe('pruneVerdict', () => {
  it('never prunes when spec.prune is false or after an error, nor everything without allowEmpty', () => {
    expect(pruneVerdict({ prune: false }, 0, 3, 1)).toBe('disabled');
    expect(pruneVerdict({}, 1, 3, 1)).toBe('skipped');
    expect(pruneVerdict({}, 0, 3, 0)).toBe('refused');
    expect(pruneVerdict({ allowEmpty: true }, 0, 3, 0)).toBe('prune');
    expect(pruneVerdict({}, 0, 0, 0)).toBe('prune');
    expect(pruneVerdict({}, 0, 2, 5)).toBe('prune');
  });
});
