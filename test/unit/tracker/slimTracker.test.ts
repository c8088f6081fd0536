import { describe, expect, it } from 'vitest';
import { type LiveTracker, slimTracker } from '../../../lib/tracker/liveTracker';

// A listed tracking object as the API server answers it: managed fields, labels and the server's
// own metadata beside what a reconcile reads.
const listed = {
  apiVersion: 'lightkeeper.dev/v1alpha1',
  kind: 'GitTrackObject',
  metadata: {
    name: 'configmap-a',
    namespace: 'team-a',
    uid: 'tracker-uid',
    resourceVersion: '4711',
    creationTimestamp: '2026-12-03T07:00:00Z',
    labels: { 'lightkeeper.dev/track-uid': 'track-uid' },
    ownerReferences: [{ uid: 'track-uid', kind: 'GitTrack', name: 'shop', controller: true }],
    managedFields: [{ manager: 'lightkeeper', operation: 'Apply', fieldsV1: { 'f:spec': {} } }],
  },
  spec: {
    target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'a' },
    source: { path: 'a.yaml', commit: 'c0ffee' },
    digest: 'd1',
    updateStrategy: 'Recreate',
  },
  status: {
    lastAppliedDigest: 'd1',
    lastAppliedCommit: 'c0ffee',
    lastAppliedFieldsDigest: 'f1',
    conditions: [{ type: 'Healthy', status: 'True', reason: 'Current', message: 'ok' }],
    observedGeneration: 3,
  },
} as unknown as LiveTracker;

describe('slimTracker', () => {
  it('keeps exactly the fields a reconcile reads, under the listed kind', () => {
    expect(slimTracker(listed, 'GitTrackObject')).toEqual({
      kind: 'GitTrackObject',
      metadata: {
        name: 'configmap-a',
        namespace: 'team-a',
        uid: 'tracker-uid',
        ownerReferences: [{ uid: 'track-uid', kind: 'GitTrack', name: 'shop', controller: true }],
      },
      spec: {
        target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'a' },
        source: { path: 'a.yaml', commit: 'c0ffee' },
        digest: 'd1',
        updateStrategy: 'Recreate',
      },
      status: {
        lastAppliedDigest: 'd1',
        lastAppliedCommit: 'c0ffee',
        lastAppliedFieldsDigest: 'f1',
        conditions: [{ type: 'Healthy', status: 'True', reason: 'Current', message: 'ok' }],
      },
    });
  });

  it('adds no field the listed object did not have (a new tracking object, cluster-scoped)', () => {
    const bare = {
      metadata: { name: 'namespace-a', uid: 'u' },
      spec: {
        target: { apiVersion: 'v1', kind: 'Namespace', name: 'a' },
        source: { path: 'ns.yaml', commit: 'c' },
        digest: 'd',
      },
    } as LiveTracker;
    const slim = slimTracker(bare, 'ClusterGitTrackObject');
    expect(slim).toEqual({ ...bare, kind: 'ClusterGitTrackObject' });
    expect(Object.keys(slim?.metadata ?? {})).toEqual(['name', 'uid']);
    expect('status' in (slim ?? {})).toBe(false);
  });

  it('drops a tracking object being deleted: it was pruned already', () => {
    const deleting = {
      ...listed,
      metadata: { ...listed.metadata, deletionTimestamp: '2026-12-03T07:01:00Z' },
    };
    expect(slimTracker(deleting, 'GitTrackObject')).toBeUndefined();
  });
});
