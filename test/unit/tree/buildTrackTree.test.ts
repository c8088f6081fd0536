import { describe, expect, it } from 'vitest';
import type { LiveTracker } from '../../../lib/tracker/liveTracker';
import { buildTrackTree, type ChildMetadata } from '../../../lib/tree/buildTrackTree';

const track = {
  kind: 'GitTrack',
  namespace: 'ns',
  name: 't',
  uid: 'track',
  deletionPolicy: 'Delete' as const,
};
const tracker = (name: string, inSync?: { status: string; reason: string }): LiveTracker => ({
  kind: 'GitTrackObject',
  metadata: { name: `configmap-${name}`, namespace: 'ns', uid: `tr-${name}` },
  spec: {
    target: { apiVersion: 'v1', kind: 'ConfigMap', name },
    source: { path: `${name}.yaml`, commit: 'c1' },
    digest: 'd',
  },
  status: { lastAppliedCommit: 'c1', ...(inSync ? { conditions: [{ type: 'InSync', ...inSync }] } : {}) },
});
const child = (meta: Partial<ChildMetadata['metadata']>): ChildMetadata => ({
  metadata: { uid: 'child', ...meta },
});

describe('buildTrackTree', () => {
  it('marks each child controlled, protected, in conflict or missing, with its sync state', () => {
    const tree = buildTrackTree(
      track,
      {
        lastAppliedCommit: 'c1',
        conditions: [{ type: 'Ready', status: 'False', reason: 'OwnershipConflict' }],
      },
      [
        {
          tracker: tracker('a', { status: 'True', reason: 'Applied' }),
          child: child({ ownerReferences: [{ uid: 'tr-a', controller: true }] }),
        },
        {
          tracker: tracker('b', { status: 'True', reason: 'Applied' }),
          child: child({
            labels: { 'lightkeeper.dev/track-uid': 'track' },
            annotations: { 'lightkeeper.dev/prune': 'disabled' },
          }),
        },
        {
          tracker: tracker('c', { status: 'False', reason: 'OwnershipConflict' }),
          child: child({
            ownerReferences: [{ uid: 'x', kind: 'Deployment', name: 'other', controller: true }],
          }),
        },
        { tracker: tracker('d'), child: undefined },
      ],
    );
    expect(tree.ready).toEqual({ status: 'False', reason: 'OwnershipConflict', message: undefined });
    expect(
      tree.nodes.map((n) => [n.child.name, n.child.state, n.protected, n.conflict, n.inSync?.status]),
    ).toEqual([
      ['a', 'controlled', false, false, 'True'],
      ['b', 'labelled', true, false, 'True'],
      ['c', 'conflict', false, true, 'False'],
      ['d', 'missing', false, false, undefined],
    ]);
    expect(tree.nodes[2]?.child.detail).toBe('controlled by Deployment other');
  });

  it('marks every child protected under deletionPolicy Orphan', () => {
    const tree = buildTrackTree({ ...track, deletionPolicy: 'Orphan' }, {}, [
      { tracker: tracker('a'), child: child({ labels: { 'lightkeeper.dev/track-uid': 'track' } }) },
    ]);
    expect(tree.nodes[0]).toMatchObject({ protected: true, child: { state: 'labelled' } });
  });
});
