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
      shards: [],
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
      shards: [],
    });
  });

  it('starts nothing after a run that failed or stopped', () => {
    expect(nextRuns(config, event, run({ result: 'Failed' }))).toEqual({ chained: [], shards: [] });
    expect(nextRuns(config, event, run({ result: 'Aborted' }))).toEqual({ chained: [], shards: [] });
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

  it('starts the shards a run claimed with keys only, and the completing run after the last success', () => {
    const planDigest = 'a'.repeat(32);
    const coordinator = run({
      result: 'Continuing',
      shards: { planDigest, total: 3, started: ['a', 'b'], running: ['a', 'b'] },
    });
    const next = nextRuns(config, event, coordinator);
    expect(next.continuation).toBeUndefined();
    expect(next.shards).toEqual(
      ['a', 'b'].map((id) => ({
        track: event.track,
        commit: head,
        mode: 'apply',
        reason: `shard ${id} of ${head}`,
        shard: { id, planDigest },
      })),
    );
    // Keys only: far under the 256 KB of an asynchronous invoke, whatever the commit holds.
    for (const e of next.shards) expect(JSON.stringify(e).length).toBeLessThan(400);
    const last = run({ result: 'Succeeded', shards: { planDigest, total: 3, started: [], complete: true } });
    expect(nextRuns(config, event, last).shards).toEqual([
      {
        track: event.track,
        commit: head,
        continuation: true,
        mode: 'apply',
        reason: `shards of ${head} done`,
        push: event.push,
      },
    ]);
    // A shard that stood down starts nothing.
    const gone = run({ result: 'Aborted', shards: { planDigest, total: 3, started: ['c'], complete: true } });
    expect(nextRuns(config, event, gone).shards).toEqual([]);
  });
});
