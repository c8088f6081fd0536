import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../lib/cli/formatSummary';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import { summaryOf } from '../../support/reconcileSummary';

const summary = summaryOf({
  track: { kind: 'ClusterGitTrack', name: 'platform' },
  result: 'Failed',
  commit: 'c'.repeat(40),
  reference: 'main',
  durationMs: 1200,
  counts: { discovered: 3, inSync: 1, conflicts: 1, pruned: 1 },
  changes: [
    { subject: 'ConfigMap/x/settings', action: 'unchanged' },
    {
      subject: 'ConfigMap/x/contested',
      action: 'conflict',
      message:
        'contested.yaml:1: ConfigMap/x/contested is already tracked by GitTrack tenant; not taking it over',
    },
    { subject: 'RoleBinding.rbac.authorization.k8s.io/x/readers', action: 'deleted' },
  ],
  writes: { objects: 2, status: 2 },
});

describe('formatSummary', () => {
  it('counts and lists ownership conflicts apart from failures', () => {
    const text = formatSummary(summary);
    expect(text).toContain('1 pruned, 0 failed, 1 conflicts, 0 drifted');
    expect(text).toContain(
      'conflicts (owned by another track or controller; not applied):\n  contested.yaml:1: ConfigMap/x/contested is already tracked by GitTrack tenant; not taking it over',
    );
    expect(text).not.toContain('errors:');
  });

  it('says how much of the commit the cluster runs when it is not all of it', () => {
    const at = 'c'.repeat(40);
    const partial = formatSummary({ ...summary, deployed: { extent: 'partial', objects: 1, of: 2 } });
    expect(partial).toContain(`\n  applied 1 of 2 objects at ${at}\n`);
    const broken = formatSummary({ ...summary, deployed: { extent: 'broken', objects: 0, of: 3 } });
    expect(broken).toContain(`\n  nothing of ${at} applied, nothing pruned: it does not parse\n`);
    const full = formatSummary({ ...summary, deployed: { extent: 'full', objects: 2, of: 2 } });
    expect(full).not.toMatch(/applied \d+ of|nothing of/);
  });
});

const sha = '1e65739f0c4a6b2d8e9f1a3b5c7d9e0f1a2b3c4d';
const summaryWith = (over: Partial<ReconcileSummary>): ReconcileSummary =>
  summaryOf({
    durationMs: 1200,
    counts: { discovered: 1, applied: 1 },
    writes: { objects: 1, status: 1 },
    ...over,
  });
const firstLine = (s: ReconcileSummary) => formatSummary(s).split('\n')[0];

describe('formatSummary, first line', () => {
  it('names the reference beside the commit it resolved to', () => {
    expect(firstLine(summaryWith({ commit: sha, reference: 'main' }))).toBe(
      `GitTrack team-a/app: Succeeded at ${sha} (main) in 1.2s`,
    );
  });

  it('prints a commit once when the reference is that commit', () => {
    expect(firstLine(summaryWith({ commit: sha, reference: sha }))).toBe(
      `GitTrack team-a/app: Succeeded at ${sha} in 1.2s`,
    );
    expect(firstLine(summaryWith({ commit: sha, reference: sha.toUpperCase() }))).toBe(
      `GitTrack team-a/app: Succeeded at ${sha} in 1.2s`,
    );
  });

  it('says what it was fetching when no commit was resolved', () => {
    expect(firstLine(summaryWith({ result: 'Failed', reference: 'main' }))).toBe(
      'GitTrack team-a/app: Failed fetching main in 1.2s',
    );
    expect(firstLine(summaryWith({ result: 'Suspended', reference: 'main' }))).toBe(
      'GitTrack team-a/app: Suspended (main) in 1.2s',
    );
  });
});

describe('formatSummary, objects skipped for safety', () => {
  it('says them on the second line, before the lists', () => {
    const ignored = [
      {
        path: 'ns.yaml',
        object: 'Namespace/other',
        reason: 'a GitTrack cannot manage a cluster-scoped resource',
      },
    ];
    const lines = formatSummary(summaryWith({ commit: sha, reference: sha, ignored })).split('\n');
    expect(lines[1]).toBe(
      '  skipped for safety: 1 objects this track may not apply (listed under "ignored")',
    );
    expect(lines).toContain(
      '  Namespace/other (ns.yaml): a GitTrack cannot manage a cluster-scoped resource',
    );
  });

  it('says nothing of skips when nothing was skipped', () => {
    expect(formatSummary(summaryWith({ commit: sha, reference: sha }))).not.toContain('skipped for safety');
  });
});
