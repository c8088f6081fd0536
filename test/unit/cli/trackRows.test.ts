import { describe, expect, it } from 'vitest';
import { formatAge, type ListedTrack, oneLine, trackTable } from '../../../lib/cli/trackRows';

const now = Date.parse('2026-12-02T12:00:00Z');

const track = (over: Partial<ListedTrack> = {}): ListedTrack => ({
  apiVersion: 'lightkeeper.dev/v1alpha1',
  kind: 'GitTrack',
  metadata: { name: 'apps', namespace: 'team-a', uid: 'u', creationTimestamp: '2026-12-02T11:55:00Z' },
  spec: { repository: 'https://x/y', reference: 'main' },
  status: {
    observedGeneration: 1,
    lastAppliedCommit: '0123456789abcdef0123456789abcdef01234567',
    conditions: [
      {
        type: 'Ready',
        status: 'False',
        reason: 'ReconciliationFailed',
        message: 'Deployment/team-a/web: forbidden\nConfigMap/team-a/x: forbidden',
        lastTransitionTime: '2026-12-02T11:59:00Z',
      },
    ],
  },
  ...over,
});

describe('trackTable', () => {
  it("prints flux get's columns: the first line of the message, a short commit, suspended, age", () => {
    expect(trackTable([track()], { allNamespaces: true, withKind: false, now })).toEqual({
      headers: ['namespace', 'name', 'ready', 'reason', 'commit', 'suspended', 'age', 'message'],
      rows: [
        [
          'team-a',
          'apps',
          'False',
          'ReconciliationFailed',
          '0123456',
          'false',
          '5m',
          'Deployment/team-a/web: forbidden…',
        ],
      ],
    });
  });

  it('names the kind when both are listed, and says when a track was never reconciled', () => {
    const fresh = track({
      kind: 'ClusterGitTrack',
      spec: { repository: 'r', reference: 'main', suspend: true },
      status: {},
    });
    expect(trackTable([fresh], { allNamespaces: false, withKind: true, now }).rows).toEqual([
      ['clustergittrack/apps', 'Unknown', 'NotReconciled', '', 'true', '5m', ''],
    ]);
  });

  it('prints the commit the cluster runs in full, as the Commit printer column, not one only attempted', () => {
    const attempted = track({ status: { observedGeneration: 1, lastAttemptedCommit: 'f'.repeat(40) } });
    expect(trackTable([attempted], { allNamespaces: false, withKind: false, now }).rows[0]?.[3]).toBe('');
  });
});

describe('formatAge and oneLine', () => {
  it('prints ages as kubectl does', () => {
    expect(
      ['2026-12-02T11:59:30Z', '2026-12-02T09:00:00Z', '2026-11-25T12:00:00Z'].map((t) => formatAge(t, now)),
    ).toEqual(['30s', '3h', '7d']);
  });
  it('cuts a message to one line', () => {
    expect(oneLine('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(oneLine('short')).toBe('short');
  });
});
