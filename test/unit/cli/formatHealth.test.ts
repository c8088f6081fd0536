import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../lib/cli/formatSummary';
import { summaryOf } from '../../support/reconcileSummary';

const summary = summaryOf({
  track: { kind: 'GitTrack', namespace: 'shop', name: 'app' },
  commit: 'a'.repeat(40),
  durationMs: 3200,
  counts: { discovered: 2, inSync: 2 },
  writes: { objects: 1, status: 1 },
  health: {
    healthy: 1,
    progressing: 0,
    failed: 1,
    of: 2,
    unhealthy: ['Deployment.apps/shop/web: not healthy within 3s: Available: 0/1'],
    waited: { end: 'timeout', ms: 3100 },
  },
});

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
