import { describe, expect, it } from 'vitest';
import { type LiveObject, slimChild } from '../../../lib/apply/liveChildren';

// A child as the metadata-only LIST answers it.
const listed = {
  apiVersion: 'meta.k8s.io/v1',
  kind: 'PartialObjectMetadata',
  metadata: {
    name: 'c',
    namespace: 'team-a',
    uid: 'child-uid',
    resourceVersion: '4711',
    creationTimestamp: '2026-12-03T07:00:00Z',
    generation: 1,
    labels: { 'lightkeeper.dev/track-uid': 'track-uid' },
    annotations: { 'lightkeeper.dev/prune': 'disabled' },
    ownerReferences: [{ uid: 'tracker-uid', controller: true }],
    finalizers: ['example.com/keep'],
    managedFields: [
      {
        manager: 'lightkeeper',
        operation: 'Apply',
        apiVersion: 'v1',
        time: '2026-12-03T07:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {} } },
      },
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        subresource: 'status',
        fieldsV1: { 'f:status': {} },
      },
    ],
  },
} as unknown as LiveObject;

describe('slimChild', () => {
  it('keeps what the apply reads, every manager and its fields, and drops the rest of the server bookkeeping', () => {
    expect(slimChild(listed)).toEqual({
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
      metadata: {
        name: 'c',
        namespace: 'team-a',
        uid: 'child-uid',
        resourceVersion: '4711',
        labels: { 'lightkeeper.dev/track-uid': 'track-uid' },
        annotations: { 'lightkeeper.dev/prune': 'disabled' },
        ownerReferences: [{ uid: 'tracker-uid', controller: true }],
        finalizers: ['example.com/keep'],
        managedFields: [
          { manager: 'lightkeeper', operation: 'Apply', fieldsV1: { 'f:data': { 'f:a': {} } } },
          {
            manager: 'kube-controller-manager',
            operation: 'Update',
            subresource: 'status',
            fieldsV1: { 'f:status': {} },
          },
        ],
      },
    });
  });

  it('adds no field the child did not have', () => {
    const bare = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', uid: 'u' } } as LiveObject;
    expect(slimChild(bare)).toEqual(bare);
  });
});
