import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../lib/cli/formatSummary';
import type { ReconcileSummary } from '../../../lib/reconcile/types';

const summary: ReconcileSummary = {
  track: { kind: 'GitTrack', namespace: 'shop', name: 'app' },
  mode: 'apply',
  result: 'Succeeded',
  commit: 'a'.repeat(40),
  durationMs: 3200,
  counts: {
    discovered: 2,
    applied: 0,
    inSync: 2,
    ignored: 0,
    failed: 0,
    conflicts: 0,
    pruned: 0,
    drifted: 0,
  },
  changes: [],
  ignored: [],
  errors: [],
  writes: { objects: 1, health: 0, status: 1 },
  health: {
    healthy: 1,
    progressing: 0,
    failed: 1,
    of: 2,
    unhealthy: ['Deployment.apps/shop/web: not healthy within 3s: Available: 0/1'],
    waited: { end: 'timeout', ms: 3100 },
  },
};

describe('formatSummary with health', () => {
  it('says how healthy the children are, how long it waited, and which are not healthy', () => {
    const lines = formatSummary(summary).split('\n');
    expect(lines).toContain('  health: 1 of 2 healthy, 0 progressing, 1 failed (waited 3.1s: out of time)');
    expect(lines.slice(-2)).toEqual([
      'not healthy:',
      '  Deployment.apps/shop/web: not healthy within 3s: Available: 0/1',
    ]);
  });
});
