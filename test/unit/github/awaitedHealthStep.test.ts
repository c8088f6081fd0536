import { describe, expect, it } from 'vitest';
import { awaitedHealthStep } from '../../../lib/github/awaitedHealthStatus';
import type { HealthSummary, ReconcileSummary } from '../../../lib/reconcile/types';
import { summaryOf } from '../../support/reconcileSummary';

const a = 'a'.repeat(40);
const b = 'b'.repeat(40);
const context = 'lightkeeper/GitTrack/team-a/app';
const progressing: HealthSummary = {
  healthy: 1,
  progressing: 1,
  failed: 0,
  of: 2,
  unhealthy: ['w: waiting'],
};
const healthy: HealthSummary = { healthy: 2, progressing: 0, failed: 0, of: 2, unhealthy: [] };
const failed: HealthSummary = { healthy: 1, progressing: 0, failed: 1, of: 2, unhealthy: ['w: broken'] };

const run = (
  commit: string,
  health: HealthSummary | undefined,
  result: ReconcileSummary['result'] = 'Succeeded',
): ReconcileSummary =>
  summaryOf({
    result,
    commit,
    counts: { discovered: 2, applied: 2, inSync: 2 },
    ...(health ? { health } : {}),
  });

describe('the record of a pushed commit that waits for health', () => {
  it('is written by a push-started run that ends progressing, once', () => {
    expect(awaitedHealthStep(undefined, run(a, progressing), a)).toEqual({ record: { commit: a, context } });
    expect(awaitedHealthStep({ commit: a, context }, run(a, progressing), a)).toEqual({
      keep: 'already waiting',
    });
    expect(awaitedHealthStep(undefined, run(a, healthy), a)).toEqual({
      keep: 'no commit awaits a health status',
    });
    expect(awaitedHealthStep(undefined, run(a, progressing))).toEqual({
      keep: 'no commit awaits a health status',
    });
  });

  it('is cleared and posted by a later run at that commit once health settles', () => {
    expect(awaitedHealthStep({ commit: a, context }, run(a, progressing), undefined)).toEqual({
      keep: 'health not settled',
    });
    for (const settled of [healthy, failed])
      expect(awaitedHealthStep({ commit: a, context }, run(a, settled), undefined)).toEqual({
        clear: { commit: a, context },
        post: true,
      });
  });

  it('is replaced by a newer pushed commit, and dropped unposted by a run at another commit', () => {
    expect(awaitedHealthStep({ commit: a, context }, run(b, progressing), b)).toEqual({
      record: { commit: b, context },
    });
    expect(awaitedHealthStep({ commit: a, context }, run(b, healthy), b)).toEqual({
      clear: { commit: a, context },
      post: false,
    });
    expect(awaitedHealthStep({ commit: a, context }, run(b, healthy, 'Failed'), undefined)).toEqual({
      clear: { commit: a, context },
      post: false,
    });
  });

  it('is left alone by runs that judged nothing', () => {
    for (const result of ['Continuing', 'Aborted', 'Suspended'] as const)
      expect(awaitedHealthStep({ commit: a, context }, run(a, healthy, result), undefined)).toEqual({
        keep: `reconcile ${result}`,
      });
    expect(awaitedHealthStep({ commit: a, context }, run(a, undefined), undefined)).toEqual({
      keep: 'health not settled',
    });
    expect(awaitedHealthStep({ commit: a, context }, run(a, healthy, 'Failed'), undefined)).toEqual({
      keep: 'health not settled',
    });
  });

  it('is cleared and posted by a run at that commit failed by its health check', () => {
    expect(awaitedHealthStep({ commit: a, context }, run(a, failed, 'Failed'), undefined)).toEqual({
      clear: { commit: a, context },
      post: true,
    });
    expect(awaitedHealthStep({ commit: a, context }, run(a, progressing, 'Failed'), undefined)).toEqual({
      keep: 'health not settled',
    });
  });
});
