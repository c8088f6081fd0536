import { describe, expect, it } from 'vitest';
import { staleTrackers } from '../../../lib/reconcile/staleTrackers';
import type { LiveTracker } from '../../../lib/tracker/liveTracker';

const tracker = (name: string, controllerUid?: string): LiveTracker => ({
  kind: 'GitTrackObject',
  metadata: {
    name,
    namespace: 'x',
    uid: `${name}-uid`,
    ...(controllerUid
      ? { ownerReferences: [{ uid: controllerUid, kind: 'ClusterGitTrack', name: 'c', controller: true }] }
      : {}),
  },
  spec: {
    target: { apiVersion: 'v1', kind: 'ConfigMap', name },
    source: { path: `${name}.yaml`, commit: 'c'.repeat(40) },
    digest: `sha256:${'0'.repeat(64)}`,
  },
});

describe('staleTrackers', () => {
  it('never offers for prune a tracking object labelled ours but controlled by another track', () => {
    const trackers = new Map([
      ['ours', tracker('ours', 'track-uid')],
      ['uncontrolled', tracker('uncontrolled')],
      ['theirs', tracker('theirs', 'other-track-uid')],
    ]);
    expect(staleTrackers(trackers, [], [], 'track-uid').map((t) => t.metadata.name)).toEqual([
      'ours',
      'uncontrolled',
    ]);
  });
});
