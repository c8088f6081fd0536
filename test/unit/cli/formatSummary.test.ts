import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../lib/cli/formatSummary';
import type { ReconcileSummary } from '../../../lib/reconcile/types';

const summary: ReconcileSummary = {
  track: { kind: 'ClusterGitTrack', name: 'platform' },
  mode: 'apply',
  result: 'Failed',
  commit: 'c'.repeat(40),
  reference: 'main',
  durationMs: 1200,
  counts: {
    discovered: 3,
    applied: 0,
    inSync: 1,
    ignored: 0,
    failed: 0,
    conflicts: 1,
    pruned: 1,
    drifted: 0,
  },
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
  ignored: [],
  errors: [],
  writes: { objects: 2, status: 2 },
};

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
