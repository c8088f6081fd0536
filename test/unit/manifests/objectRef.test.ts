import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../lib/manifests';
import { formatRef, identityKey, refOf, splitApiVersion } from '../../../lib/manifests';

const object = (apiVersion: string, kind: string, name: string, namespace?: string): KubeObject => ({
  apiVersion,
  kind,
  metadata: namespace === undefined ? { name } : { name, namespace },
});

describe('refOf', () => {
  it('splits group and version', () => {
    expect(refOf(object('apps/v1', 'Deployment', 'web', 'shop'))).toEqual({
      apiVersion: 'apps/v1',
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
      namespace: 'shop',
      name: 'web',
    });
  });

  it('gives the core group as empty and leaves an unwritten namespace absent', () => {
    const ref = refOf(object('v1', 'ConfigMap', 'cfg'));
    expect(ref).toEqual({ apiVersion: 'v1', group: '', version: 'v1', kind: 'ConfigMap', name: 'cfg' });
    expect('namespace' in ref).toBe(false);
  });

  it('treats an empty namespace as absent', () => {
    expect(refOf(object('v1', 'ConfigMap', 'cfg', '')).namespace).toBeUndefined();
  });
});

describe('splitApiVersion', () => {
  it('accepts version and group/version only', () => {
    expect(splitApiVersion('v1')).toEqual({ group: '', version: 'v1' });
    expect(splitApiVersion('rbac.authorization.k8s.io/v1')).toEqual({
      group: 'rbac.authorization.k8s.io',
      version: 'v1',
    });
    expect(splitApiVersion('a/b/c')).toBeUndefined();
    expect(splitApiVersion('/v1')).toBeUndefined();
    expect(splitApiVersion('apps/')).toBeUndefined();
    expect(splitApiVersion('')).toBeUndefined();
  });
});

describe('formatRef', () => {
  it('names objects as Kind[.group]/[namespace/]name', () => {
    expect(formatRef(refOf(object('apps/v1', 'Deployment', 'web', 'shop')))).toBe('Deployment.apps/shop/web');
    expect(formatRef(refOf(object('rbac.authorization.k8s.io/v1', 'ClusterRole', 'view')))).toBe(
      'ClusterRole.rbac.authorization.k8s.io/view',
    );
    expect(formatRef(refOf(object('v1', 'ConfigMap', 'cfg', 'shop')))).toBe('ConfigMap/shop/cfg');
    expect(formatRef(refOf(object('v1', 'Namespace', 'shop')))).toBe('Namespace/shop');
  });
});

describe('identityKey', () => {
  it('ignores the version but not the group, kind, namespace or name', () => {
    const key = (apiVersion: string, kind: string, name: string, ns?: string) =>
      identityKey(refOf(object(apiVersion, kind, name, ns)));
    expect(key('autoscaling/v1', 'HorizontalPodAutoscaler', 'a', 'x')).toBe(
      key('autoscaling/v2', 'HorizontalPodAutoscaler', 'a', 'x'),
    );
    const distinct = new Set([
      key('apps/v1', 'Deployment', 'a', 'x'),
      key('example.com/v1', 'Deployment', 'a', 'x'),
      key('apps/v1', 'StatefulSet', 'a', 'x'),
      key('apps/v1', 'Deployment', 'a', 'y'),
      key('apps/v1', 'Deployment', 'a'),
      key('apps/v1', 'Deployment', 'b', 'x'),
    ]);
    expect(distinct.size).toBe(6);
  });
});
