import { describe, expect, it } from 'vitest';
import {
  classifyOwnerReferences,
  type ScannedObject,
  type ScopeOf,
} from '../../../lib/audit/classifyOwnerReferences';

const scopes: Record<string, boolean> = {
  'lightkeeper.dev/v1alpha1/GitTrack': true,
  'lightkeeper.dev/v1alpha1/ClusterGitTrack': false,
  'lightkeeper.dev/v1alpha1/GitTrackObject': true,
  'lightkeeper.dev/v1alpha1/ClusterGitTrackObject': false,
  'v1/ConfigMap': true,
};
const scopeOf: ScopeOf = (apiVersion, kind) => {
  const namespaced = scopes[`${apiVersion}/${kind}`];
  return namespaced === undefined ? undefined : { namespaced };
};

const lk = 'lightkeeper.dev/v1alpha1';
const gitTrack: ScannedObject = {
  apiVersion: lk,
  kind: 'GitTrack',
  namespaced: true,
  namespace: 'a',
  name: 't',
  uid: 'gt',
};
const clusterTrack: ScannedObject = {
  apiVersion: lk,
  kind: 'ClusterGitTrack',
  namespaced: false,
  name: 'c',
  uid: 'cgt',
};
const refTo = (o: ScannedObject, uid = o.uid) => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  name: o.name,
  uid,
});
const gto = (name: string, namespace: string, refs: ScannedObject['ownerReferences']): ScannedObject => ({
  apiVersion: lk,
  kind: 'GitTrackObject',
  namespaced: true,
  namespace,
  name,
  uid: `uid-${name}`,
  ownerReferences: refs,
});

describe('classifyOwnerReferences', () => {
  it('passes the legal shapes: same-namespace owner, cluster-scoped owner of both scopes', () => {
    const cgto: ScannedObject = {
      apiVersion: lk,
      kind: 'ClusterGitTrackObject',
      namespaced: false,
      name: 'x',
      uid: 'x',
      ownerReferences: [refTo(clusterTrack)],
    };
    const objects = [
      gitTrack,
      clusterTrack,
      gto('same', 'a', [refTo(gitTrack)]),
      gto('from-cluster', 'b', [refTo(clusterTrack)]),
      cgto,
    ];
    expect(classifyOwnerReferences(objects, scopeOf)).toEqual([]);
  });

  it('finds a namespaced owner in another namespace (the Faros shape): deleted', () => {
    const [f] = classifyOwnerReferences([gitTrack, gto('cross', 'b', [refTo(gitTrack)])], scopeOf);
    expect(f).toMatchObject({
      finding: 'CrossNamespaceOwner',
      dependent: { kind: 'GitTrackObject', namespace: 'b', name: 'cross' },
      owner: { kind: 'GitTrack', name: 't', uid: 'gt', foundIn: 'a' },
      consequence: 'deleted',
    });
    expect(f?.why).toMatch(/looks GitTrack t up in b/);
    expect(f?.fix).toMatch(/first add a legal owner/);
  });

  it('finds a cluster-scoped dependent of a namespaced kind: leaks', () => {
    const cgto: ScannedObject = {
      apiVersion: lk,
      kind: 'ClusterGitTrackObject',
      namespaced: false,
      name: 'x',
      uid: 'x',
      ownerReferences: [refTo(gitTrack)],
    };
    expect(classifyOwnerReferences([gitTrack, cgto], scopeOf)).toMatchObject([
      { finding: 'NamespacedOwnerOfClusterScoped', consequence: 'leaks', dependent: { name: 'x' } },
    ]);
  });

  it('finds an owner UID that exists nowhere, and one that names another object', () => {
    const findings = classifyOwnerReferences(
      [
        gitTrack,
        gto('gone', 'a', [refTo(gitTrack, 'nowhere')]),
        gto('renamed', 'a', [{ ...refTo(gitTrack), name: 'other' }]),
      ],
      scopeOf,
    );
    expect(findings.map((f) => [f.dependent.name, f.finding, f.consequence])).toEqual([
      ['gone', 'DanglingOwner', 'deleted'],
      ['renamed', 'DanglingOwner', 'deleted'],
    ]);
  });

  it('finds an owner kind the server does not serve: never collected', () => {
    const ref = { apiVersion: 'faros.pusher.com/v1alpha1', kind: 'GitTrack', name: 't', uid: 'old' };
    expect(classifyOwnerReferences([gto('faros', 'a', [ref])], scopeOf)).toMatchObject([
      {
        finding: 'UnservedOwnerKind',
        consequence: 'never collected',
        owner: { apiVersion: 'faros.pusher.com/v1alpha1' },
      },
    ]);
  });

  it('with one valid owner left, the collector only removes the bad reference', () => {
    const both = gto('both', 'b', [refTo(gitTrack), refTo(clusterTrack)]);
    expect(classifyOwnerReferences([gitTrack, clusterTrack, both], scopeOf)).toMatchObject([
      { finding: 'CrossNamespaceOwner', consequence: 'reference removed' },
    ]);
  });

  it('counts an object listed twice (served by two groups) once', () => {
    const dup = gto('dup', 'a', [refTo(gitTrack, 'nowhere')]);
    expect(classifyOwnerReferences([gitTrack, dup, { ...dup }], scopeOf)).toHaveLength(1);
  });
});
