import { describe, expect, it } from 'vitest';
import {
  recordShardOutcome,
  type ShardsRecord,
  shardSuperseded,
  shardVerdict,
  startShards,
} from '../../../lib/reconcile/shardRecord';

// The barrier of a sharded apply, as data: which shards run, which are stuck, and the one write
// that records the last success.

const commit = 'c'.repeat(40);
const digest = 'd'.repeat(32);
const t0 = new Date('2026-01-01T00:00:00Z');
const later = (ms: number) => new Date(t0.getTime() + ms);
const fresh = { commit, planDigest: digest, threshold: 4, objects: 12, startedAt: t0.toISOString() };
const sizes = new Map([
  ['a', 3],
  ['b', 3],
  ['c', 3],
]);
const ok = { applied: 3, failed: 0, errors: [] };
const key = (id: string) => ({ id, commit, planDigest: digest });

const started = (fanout = 2) => startShards(fresh, sizes, undefined, fanout, t0);

describe('shard records', () => {
  it('starts at most fanout shards; each recorded success claims the next pending one', () => {
    const first = started();
    expect(first.started).toEqual(['a', 'b']);
    expect(first.record.shards.map((s) => s.state)).toEqual(['running', 'running', 'pending']);
    const afterA = recordShardOutcome(first.record, key('a'), ok, 2, later(1000));
    if ('superseded' in afterA) throw new Error(afterA.superseded);
    expect(afterA.started).toEqual(['c']);
    expect(afterA.complete).toBe(false);
    const afterB = recordShardOutcome(afterA.record, key('b'), ok, 2, later(2000));
    if ('superseded' in afterB) throw new Error(afterB.superseded);
    expect(afterB.complete).toBe(false);
    const afterC = recordShardOutcome(afterB.record, key('c'), ok, 2, later(3000));
    if ('superseded' in afterC) throw new Error(afterC.superseded);
    // Only the write that records the last success completes: exactly one run prunes.
    expect(afterC.complete).toBe(true);
    expect(shardVerdict(afterC.record, commit, digest, later(4000), 60_000)).toEqual({ kind: 'complete' });
    // The same shard recorded again (Lambda's retry) stands down: it is no longer running.
    expect(recordShardOutcome(afterC.record, key('c'), ok, 2, later(5000))).toEqual({
      superseded: `shard c of ${commit} superseded: it is succeeded`,
    });
  });

  it('a failed shard is no success: the record never completes, and the next run restarts only it', () => {
    const all = started(3).record;
    const failed = recordShardOutcome(
      all,
      key('b'),
      { applied: 0, failed: 1, errors: ['x: refused'] },
      3,
      t0,
    );
    if ('superseded' in failed) throw new Error(failed.superseded);
    let record: ShardsRecord = failed.record;
    for (const id of ['a', 'c']) {
      const next = recordShardOutcome(record, key(id), ok, 3, t0);
      if ('superseded' in next) throw new Error(next.superseded);
      expect(next.complete).toBe(false);
      record = next.record;
    }
    expect(record.shards.find((s) => s.id === 'b')).toMatchObject({ state: 'failed', message: 'x: refused' });
    expect(shardVerdict(record, commit, digest, t0, 60_000)).toEqual({
      kind: 'resume',
      stuck: [],
      failed: ['b'],
    });
    const resumed = startShards(fresh, sizes, record, 3, later(1));
    expect(resumed.started).toEqual(['b']);
    expect(resumed.record.shards.map((s) => s.state)).toEqual(['succeeded', 'running', 'succeeded']);
  });

  it('a shard out of time goes on: still running, started again first, its applied summed; a failure ends it', () => {
    const { record } = started();
    const partial = { applied: 1, failed: 0, errors: [], notTaken: 2 };
    const first = recordShardOutcome(record, key('a'), partial, 2, later(61_000));
    if ('superseded' in first) throw new Error(first.superseded);
    expect(first.continuing).toBe(true);
    expect(first.complete).toBe(false);
    // Itself again, and no pending shard claimed: it still takes its slot of the fan-out.
    expect(first.started).toEqual(['a']);
    expect(first.record.shards.find((s) => s.id === 'a')).toMatchObject({
      state: 'running',
      applied: 1,
      since: later(61_000).toISOString(),
    });
    // Renewed, so not stuck; b (started at t0) is.
    expect(shardVerdict(first.record, commit, digest, later(62_000), 60_000)).toEqual({
      kind: 'resume',
      stuck: ['b'],
      failed: [],
    });
    const done = recordShardOutcome(first.record, key('a'), { ...ok, applied: 2 }, 2, later(70_000));
    if ('superseded' in done) throw new Error(done.superseded);
    expect(done.continuing).toBe(false);
    expect(done.started).toEqual(['c']);
    expect(done.record.shards.find((s) => s.id === 'a')).toMatchObject({ state: 'succeeded', applied: 3 });
    // Out of time with a failure: failed, not continued.
    const bad = recordShardOutcome(
      record,
      key('b'),
      { applied: 0, failed: 1, errors: ['x'], notTaken: 2 },
      2,
      t0,
    );
    if ('superseded' in bad) throw new Error(bad.superseded);
    expect(bad.continuing).toBe(false);
    expect(bad.started).toEqual(['c']);
    expect(bad.record.shards.find((s) => s.id === 'b')?.state).toBe('failed');
  });

  it('waits while shards run, and calls one running past the pending time stuck', () => {
    const { record } = started();
    expect(shardVerdict(record, commit, digest, later(1000), 60_000)).toEqual({
      kind: 'wait',
      running: ['a', 'b'],
    });
    expect(shardVerdict(record, commit, digest, later(61_000), 60_000)).toEqual({
      kind: 'resume',
      stuck: ['a', 'b'],
      failed: [],
    });
  });

  it('another commit or plan supersedes: its shards stand down and the coordinator starts afresh', () => {
    const { record } = started();
    const other = 'e'.repeat(40);
    expect(shardVerdict(record, other, digest, t0, 60_000)).toEqual({ kind: 'start' });
    expect(shardVerdict(record, commit, 'f'.repeat(32), t0, 60_000)).toEqual({ kind: 'start' });
    const newer = startShards({ ...fresh, commit: other }, sizes, record, 2, t0).record;
    // Nothing of the older commit is kept, not even its successes.
    expect(newer.shards.every((s) => s.state !== 'succeeded')).toBe(true);
    expect(shardSuperseded(newer, key('a'))).toBe(
      `shard a of ${commit} superseded: the track is being applied at ${other}`,
    );
    expect(recordShardOutcome(newer, key('a'), ok, 2, t0)).toHaveProperty('superseded');
    expect(shardSuperseded(undefined, key('a'))).toContain('no shards record');
  });
});
