import { describe, expect, it } from 'vitest';
import { waitLine } from '../../../lib/depends/waitLine';

describe('waitLine', () => {
  it('names the command that brings a ClusterGitTrack forward', () => {
    expect(
      waitLine({ track: { kind: 'ClusterGitTrack', name: 'platform' }, reason: 'not reconciled yet' }),
    ).toBe(
      'ClusterGitTrack/platform: not reconciled yet (unblock: lightkeeper reconcile clustergittrack/platform)',
    );
  });

  it('gives a GitTrack its namespace', () => {
    expect(
      waitLine({
        track: { kind: 'GitTrack', namespace: 'shop', name: 'db' },
        reason: 'has applied no commit yet',
      }),
    ).toBe(
      'GitTrack/shop/db: has applied no commit yet (unblock: lightkeeper reconcile gittrack/db -n shop)',
    );
  });

  it('offers no reconcile for a dependency that does not exist', () => {
    expect(
      waitLine({ track: { kind: 'GitTrack', namespace: 'shop', name: 'ghost' }, reason: 'not found' }),
    ).toBe('GitTrack/shop/ghost: not found');
  });
});
