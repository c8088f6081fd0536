import { describe, expect, it } from 'vitest';
import { OwnershipError } from '../../../lib/errors';
import { controllerReference } from '../../../lib/ownership/ownerReference';

const gitTrack = {
  apiVersion: 'lightkeeper.dev/v1alpha1',
  kind: 'GitTrack',
  name: 'team',
  uid: 'u1',
  namespace: 'a',
};
const clusterGitTrack = {
  apiVersion: 'lightkeeper.dev/v1alpha1',
  kind: 'ClusterGitTrack',
  name: 'all',
  uid: 'u2',
};

describe('controllerReference', () => {
  it('builds a full controller reference', () => {
    expect(controllerReference(gitTrack, { namespace: 'a', subject: 'x' })).toEqual({
      apiVersion: 'lightkeeper.dev/v1alpha1',
      kind: 'GitTrack',
      name: 'team',
      uid: 'u1',
      controller: true,
      blockOwnerDeletion: true,
    });
  });

  it('lets a cluster-scoped owner own namespaced and cluster-scoped dependents', () => {
    expect(controllerReference(clusterGitTrack, { namespace: 'b', subject: 'x' }).uid).toBe('u2');
    expect(controllerReference(clusterGitTrack, { subject: 'x' }).uid).toBe('u2');
  });

  it('refuses a namespaced owner in another namespace (dangling to the collector)', () => {
    expect(() => controllerReference(gitTrack, { namespace: 'b', subject: 'GitTrackObject/b/x' })).toThrow(
      /GitTrackObject\/b\/x in namespace b cannot be owned by GitTrack a\/team/,
    );
  });

  it('refuses a namespaced owner for a cluster-scoped dependent (never resolved)', () => {
    expect(() => controllerReference(gitTrack, { subject: 'ClusterGitTrackObject/x' })).toThrow(
      OwnershipError,
    );
  });

  it('refuses an owner without a uid', () => {
    expect(() => controllerReference({ ...clusterGitTrack, uid: '' }, { subject: 'x' })).toThrow(
      /has no uid/,
    );
  });
});
