import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../lib/cli/formatSummary';
import type { ReconcileSummary } from '../../../lib/reconcile/types';

const sha = '1e65739f0c4a6b2d8e9f1a3b5c7d9e0f1a2b3c4d';
const summary = (over: Partial<ReconcileSummary>): ReconcileSummary => ({
  track: { kind: 'GitTrack', namespace: 'team-a', name: 'app' },
  mode: 'apply',
  result: 'Succeeded',
  durationMs: 1200,
  counts: { discovered: 1, applied: 1, inSync: 0, ignored: 0, failed: 0, pruned: 0, drifted: 0 },
  changes: [],
  ignored: [],
  errors: [],
  writes: { objects: 1, status: 1 },
  ...over,
});
const firstLine = (s: ReconcileSummary) => formatSummary(s).split('\n')[0];

describe('formatSummary', () => {
  it('names the reference beside the commit it resolved to', () => {
    expect(firstLine(summary({ commit: sha, reference: 'main' }))).toBe(
      `GitTrack team-a/app: Succeeded at ${sha} (main) in 1.2s`,
    );
  });

  it('prints a commit once when the reference is that commit', () => {
    expect(firstLine(summary({ commit: sha, reference: sha }))).toBe(
      `GitTrack team-a/app: Succeeded at ${sha} in 1.2s`,
    );
    expect(firstLine(summary({ commit: sha, reference: sha.toUpperCase() }))).toBe(
      `GitTrack team-a/app: Succeeded at ${sha} in 1.2s`,
    );
  });

  it('says what it was fetching when no commit was resolved', () => {
    expect(firstLine(summary({ result: 'Failed', reference: 'main' }))).toBe(
      'GitTrack team-a/app: Failed fetching main in 1.2s',
    );
    expect(firstLine(summary({ result: 'Suspended', reference: 'main' }))).toBe(
      'GitTrack team-a/app: Suspended (main) in 1.2s',
    );
  });
});
