import { describe, expect, it } from 'vitest';
import { OwnershipError } from '../../../lib/errors';
import {
  childOwnerReferences,
  effectiveDeletionPolicy,
  hasExpectedReferences,
  isProtectedChild,
  refuseOtherController,
} from '../../../lib/ownership/childOwnership';
import { decideOwnership, type TrackOwner } from '../../../lib/ownership/ownershipTable';
import type { DeploymentConfig } from '../../../lib/settings/deploymentModes';

const include: DeploymentConfig = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'IncludeNamespaced' };
const track: TrackOwner = {
  kind: 'GitTrack',
  apiVersion: 'lightkeeper.dev/v1alpha1',
  name: 'team',
  uid: 'gt-uid',
  namespace: 'team',
};
const orphaning: TrackOwner = { ...track, deletionPolicy: 'Orphan' };
const manifest = (annotations?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cfg', ...(annotations ? { annotations } : {}) },
});
const decision = decideOwnership(track, include, {
  ref: { apiVersion: 'v1', group: '', version: 'v1', kind: 'ConfigMap', name: 'cfg', namespace: 'team' },
  namespaced: true,
});
if (decision.verdict !== 'track') throw new Error('the table must track a ConfigMap of its own namespace');

describe('effectiveDeletionPolicy', () => {
  it.each([
    [{}, 'Delete'],
    [{ prune: true }, 'Delete'],
    [{ prune: false }, 'Orphan'],
    [{ prune: false, deletionPolicy: 'Delete' }, 'Delete'],
    [{ prune: true, deletionPolicy: 'Orphan' }, 'Orphan'],
  ] as const)('%o → %s (unset mirrors prune)', (spec, policy) => {
    expect(effectiveDeletionPolicy(spec)).toBe(policy);
  });
});

describe('child protection', () => {
  it('protects a child annotated prune: disabled, and every child of an Orphan track', () => {
    expect(isProtectedChild(track, manifest())).toBe(false);
    expect(isProtectedChild(track, manifest({ 'lightkeeper.dev/prune': 'enabled' }))).toBe(false);
    expect(isProtectedChild(track, manifest({ 'lightkeeper.dev/prune': 'disabled' }))).toBe(true);
    expect(isProtectedChild(orphaning, manifest())).toBe(true);
    expect(isProtectedChild({ ...track, deletionPolicy: 'Delete' }, manifest())).toBe(false);
  });

  it('gives an unprotected child the controller reference to its tracking object, a protected one none', () => {
    expect(childOwnerReferences(decision, 'gto-uid', 'ConfigMap/team/cfg', false)).toEqual([
      {
        apiVersion: 'lightkeeper.dev/v1alpha1',
        kind: 'GitTrackObject',
        name: decision.trackerName,
        uid: 'gto-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(childOwnerReferences(decision, 'gto-uid', 'ConfigMap/team/cfg', true)).toEqual([]);
  });

  it('expects the controller reference on an unprotected child and no reference on a protected one', () => {
    const ours = [{ uid: 'gto-uid', controller: true }];
    const other = [{ uid: 'rs-uid', controller: true }];
    const plainOwner = [{ uid: 'cm-uid' }];
    expect(hasExpectedReferences(ours, 'gto-uid', false)).toBe(true);
    expect(hasExpectedReferences(undefined, 'gto-uid', false)).toBe(false);
    expect(hasExpectedReferences(other, 'gto-uid', false)).toBe(false);
    expect(hasExpectedReferences(undefined, 'gto-uid', true)).toBe(true);
    expect(hasExpectedReferences(plainOwner, 'gto-uid', true)).toBe(true);
    expect(hasExpectedReferences(ours, 'gto-uid', true)).toBe(false);
    expect(hasExpectedReferences([{ uid: 'gto-uid' }], 'gto-uid', true)).toBe(false);
    expect(hasExpectedReferences(other, 'gto-uid', true)).toBe(false);
  });

  it('refuses a child another controller holds, naming it', () => {
    const held = {
      metadata: { ownerReferences: [{ uid: 'rs-uid', kind: 'ReplicaSet', name: 'web', controller: true }] },
    };
    expect(() => refuseOtherController(held, 'gto-uid', 'ConfigMap/team/cfg')).toThrow(OwnershipError);
    expect(() => refuseOtherController(held, 'gto-uid', 'ConfigMap/team/cfg')).toThrow(
      'ConfigMap/team/cfg is controlled by ReplicaSet web; not taking it over',
    );
    expect(() => refuseOtherController(undefined, 'gto-uid', 's')).not.toThrow();
    expect(() => refuseOtherController({ metadata: {} }, 'gto-uid', 's')).not.toThrow();
    expect(() =>
      refuseOtherController(
        { metadata: { ownerReferences: [{ uid: 'gto-uid', controller: true }] } },
        'gto-uid',
        's',
      ),
    ).not.toThrow();
  });
});
