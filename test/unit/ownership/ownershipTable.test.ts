import { describe, expect, it } from 'vitest';
import type { ObjectRef } from '../../../lib/manifests';
import { decideOwnership, ignoreReasons, type TrackOwner } from '../../../lib/ownership/ownershipTable';
import type { DeploymentConfig } from '../../../lib/settings/deploymentModes';

const include: DeploymentConfig = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'IncludeNamespaced' };
const exclude: DeploymentConfig = { ...include, clusterGitTrackMode: 'ExcludeNamespaced' };
const apiVersion = 'lightkeeper.dev/v1alpha1';
const gitTrack: TrackOwner = { kind: 'GitTrack', apiVersion, name: 'team', uid: 'gt-uid', namespace: 'team' };
const clusterGitTrack: TrackOwner = { kind: 'ClusterGitTrack', apiVersion, name: 'platform', uid: 'cgt-uid' };

const ref = (kind: string, name: string, namespace?: string): ObjectRef => ({
  apiVersion: 'v1',
  group: '',
  version: 'v1',
  kind,
  name,
  ...(namespace ? { namespace } : {}),
});
const clusterScoped = { ref: ref('Namespace', 'shop'), namespaced: false };
const namespaced = (namespace?: string) => ({ ref: ref('ConfigMap', 'cfg', namespace), namespaced: true });

describe('the ownership table', () => {
  it.each([
    [
      'ClusterGitTrack',
      'cluster-scoped',
      clusterGitTrack,
      include,
      clusterScoped,
      'ClusterGitTrackObject',
      undefined,
    ],
    ['ClusterGitTrack', 'namespaced', clusterGitTrack, include, namespaced('shop'), 'GitTrackObject', 'shop'],
    [
      'ClusterGitTrack',
      'no namespace, defaultNamespace',
      { ...clusterGitTrack, defaultNamespace: 'dflt' },
      include,
      namespaced(),
      'GitTrackObject',
      'dflt',
    ],
    ['GitTrack', 'own namespace', gitTrack, include, namespaced('team'), 'GitTrackObject', 'team'],
    ['GitTrack', 'no namespace', gitTrack, include, namespaced(), 'GitTrackObject', 'team'],
  ] as const)('%s, %s manifest → %s', (_kind, _cell, track, config, manifest, tracker, namespace) => {
    const decision = decideOwnership(track, config, manifest);
    expect(decision).toMatchObject({ verdict: 'track', tracker, namespace });
    if (decision.verdict !== 'track') return;
    expect(decision.trackerOwner).toEqual({
      apiVersion,
      kind: track.kind,
      name: track.name,
      uid: track.uid,
      controller: true,
      blockOwnerDeletion: true,
    });
  });

  it.each([
    ['GitTrack, cluster-scoped', gitTrack, include, clusterScoped, ignoreReasons.clusterScopedForGitTrack],
    [
      'GitTrack, other namespace',
      gitTrack,
      include,
      namespaced('other'),
      'namespace other is not managed by this GitTrack',
    ],
    [
      'ClusterGitTrack ExcludeNamespaced',
      clusterGitTrack,
      exclude,
      namespaced('shop'),
      ignoreReasons.excludedNamespaced,
    ],
    [
      'ClusterGitTrack, no namespace and no default',
      clusterGitTrack,
      include,
      namespaced(),
      ignoreReasons.noNamespace,
    ],
  ] as const)('ignores %s', (_name, track, config, manifest, reason) => {
    expect(decideOwnership(track, config, manifest)).toEqual({ verdict: 'ignore', reason });
  });

  it('still tracks cluster-scoped manifests in ExcludeNamespaced mode', () => {
    expect(decideOwnership(clusterGitTrack, exclude, clusterScoped)).toMatchObject({
      tracker: 'ClusterGitTrackObject',
    });
  });

  it('can never produce an owner reference the garbage collector would treat as dangling', () => {
    // A GitTrack's tracking objects are always in its own namespace, so its reference always resolves.
    for (const manifest of [namespaced('team'), namespaced(), namespaced('other'), clusterScoped]) {
      const d = decideOwnership(gitTrack, include, manifest);
      if (d.verdict === 'track') expect(d.namespace).toBe(gitTrack.namespace);
    }
  });
});
