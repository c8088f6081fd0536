import { describe, expect, it } from 'vitest';
import { finalStatus, settledHealthStatus } from '../../../lib/github/commitStatus';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import { summaryOf } from '../../support/reconcileSummary';

const sha = 'a'.repeat(40);
const summary = (health?: ReconcileSummary['health']): ReconcileSummary =>
  summaryOf({ commit: sha, counts: { discovered: 3, applied: 3, inSync: 3 }, ...(health ? { health } : {}) });

describe('the commit status description with health', () => {
  const progressing = {
    healthy: 2,
    progressing: 1,
    failed: 0,
    of: 3,
    unhealthy: ['Deployment.apps/team-a/web: Available: 0/1'],
  };
  it('adds how many children are healthy when the reconcile assessed them', () => {
    expect(
      finalStatus(summary({ ...progressing, healthy: 3, progressing: 0, unhealthy: [] }), sha),
    ).toMatchObject({
      state: 'success',
      description: 'applied 3, pruned 0, failed 0, healthy 3 of 3',
    });
    expect(finalStatus(summary(), sha)).toMatchObject({
      state: 'success',
      description: 'applied 3, pruned 0, failed 0',
    });
  });

  it('stays pending while children are progressing, and fails when one has failed', () => {
    expect(finalStatus(summary(progressing), sha)).toEqual({
      state: 'pending',
      context: 'lightkeeper/GitTrack/team-a/app',
      description: 'applied 3, pruned 0, failed 0, healthy 2 of 3, waiting for health',
    });
    const failed = { ...progressing, progressing: 0, failed: 1 };
    failed.unhealthy = ['Deployment.apps/team-a/web: not healthy within 3s: Available: 0/1'];
    expect(finalStatus(summary(failed), sha)).toMatchObject({
      state: 'failure',
      description:
        'unhealthy: applied 3, pruned 0, failed 0, healthy 2 of 3, failed 1: Deployment.apps/team-a/web: not healthy within 3s: Available: 0/1',
    });
    // Another commit applied than the one pushed: its health says nothing about the pushed one.
    expect(finalStatus(summary(progressing), 'b'.repeat(40)).state).toBe('success');
  });
});

describe('the settled health of a commit a push left waiting', () => {
  const track = { kind: 'GitTrack' as const, namespace: 'team-a', name: 'app' };
  it('is success when every child is healthy, failure naming the first that is not', () => {
    const all = { healthy: 3, progressing: 0, failed: 0, of: 3, unhealthy: [] };
    expect(settledHealthStatus(track, all, 'https://ci.example')).toEqual({
      state: 'success',
      context: 'lightkeeper/GitTrack/team-a/app',
      description: 'healthy 3 of 3',
      target_url: 'https://ci.example',
    });
    const one = {
      healthy: 2,
      progressing: 0,
      failed: 1,
      of: 3,
      unhealthy: [`Widget.x/team-a/w: ${'x'.repeat(200)}`],
    };
    const failed = settledHealthStatus(track, one);
    expect(failed.state).toBe('failure');
    expect(failed.description).toMatch(/^unhealthy: healthy 2 of 3, failed 1: Widget\.x\/team-a\/w: x+…$/);
    expect(failed.description).toHaveLength(140);
  });
});
