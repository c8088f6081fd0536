import { describe, expect, it } from 'vitest';
import { takeInline } from '../../../lib/lambda/inlineRun';
import type { NextRuns } from '../../../lib/lambda/nextRuns';
import type { ReconcileEvent } from '../../../lib/reconcile/reconcileEvent';

const track = { kind: 'ClusterGitTrack', name: 'big' } as const;
const commit = 'c'.repeat(40);
const shard = (id: string): ReconcileEvent => ({
  track,
  commit,
  mode: 'apply',
  reason: `shard ${id} of ${commit}`,
  shard: { id, planDigest: 'd' },
});
const completing: ReconcileEvent = { track, commit, continuation: true, mode: 'apply', reason: 'done' };
const chained: ReconcileEvent = {
  track: { kind: 'ClusterGitTrack', name: 'apps' },
  mode: 'apply',
  reason: 'dep',
};

describe('takeInline: the run an invocation takes on instead of invoking it', () => {
  it('takes the first shard and invokes the others, the chain untouched', () => {
    const next: NextRuns = { shards: [shard('a'), shard('b'), shard('c')], chained: [chained] };
    expect(takeInline(next, 800_000, 600_000)).toEqual({
      inline: shard('a'),
      rest: { shards: [shard('b'), shard('c')], chained: [chained] },
    });
  });

  it('takes the completing run', () => {
    expect(takeInline({ shards: [completing], chained: [] }, 600_000, 600_000)).toEqual({
      inline: completing,
      rest: { shards: [], chained: [] },
    });
  });

  it('takes nothing with less time left than the minimum, nor a continuation of a run out of time', () => {
    const late: NextRuns = { shards: [shard('a')], chained: [] };
    expect(takeInline(late, 599_999, 600_000)).toEqual({ rest: late });
    const outOfTime: NextRuns = { continuation: completing, shards: [], chained: [chained] };
    expect(takeInline(outOfTime, 900_000, 0)).toEqual({ rest: outOfTime });
  });
});
