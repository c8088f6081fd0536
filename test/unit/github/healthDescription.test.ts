import { describe, expect, it } from 'vitest';
import { finalStatus } from '../../../lib/github/commitStatus';
import type { ReconcileSummary } from '../../../lib/reconcile/types';

const sha = 'a'.repeat(40);
const summary = (health?: ReconcileSummary['health']): ReconcileSummary => ({
  track: { kind: 'GitTrack', namespace: 'team-a', name: 'app' },
  mode: 'apply',
  result: 'Succeeded',
  commit: sha,
  durationMs: 1,
  counts: {
    discovered: 3,
    applied: 3,
    inSync: 3,
    ignored: 0,
    failed: 0,
    conflicts: 0,
    pruned: 0,
    drifted: 0,
  },
  changes: [],
  ignored: [],
  errors: [],
  writes: { objects: 0, status: 0 },
  ...(health ? { health } : {}),
});

describe('the commit status description with health', () => {
  it('adds how many children are healthy when the reconcile assessed them', () => {
    const health = {
      healthy: 2,
      progressing: 1,
      failed: 0,
      of: 3,
      unhealthy: ['Deployment.apps/team-a/web: Available: 0/1'],
    };
    expect(finalStatus(summary(health), sha).description).toBe(
      'applied 3, pruned 0, failed 0, healthy 2 of 3',
    );
    expect(finalStatus(summary(), sha).description).toBe('applied 3, pruned 0, failed 0');
  });
});
