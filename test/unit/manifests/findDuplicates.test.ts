import { describe, expect, it } from 'vitest';
import type { KubeObject, Manifest } from '../../../lib/manifests';
import { findDuplicates, identityKey, refOf } from '../../../lib/manifests';

const manifest = (path: string, line: number, name: string, namespace?: string): Manifest => {
  const object: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } };
  if (namespace) object.metadata.namespace = namespace;
  return { source: { path, line }, object, ref: refOf(object) };
};

describe('findDuplicates', () => {
  it('keeps the first occurrence and refuses later ones naming both locations', () => {
    const first = manifest('a.yaml', 3, 'cfg', 'shop');
    const other = manifest('a.yaml', 9, 'other', 'shop');
    const again = manifest('b.yaml', 12, 'cfg', 'shop');
    const { unique, errors } = findDuplicates([first, other, again]);
    expect(unique).toEqual([first, other]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe(
      'b.yaml:12 (ConfigMap/shop/cfg): the same object is also defined at a.yaml:3; each object may be defined only once',
    );
    expect(errors[0]).toMatchObject({
      code: 'ManifestError',
      path: 'b.yaml',
      line: 12,
      object: 'ConfigMap/shop/cfg',
    });
  });

  it('uses the given key, e.g. after namespaces are defaulted', () => {
    const written = manifest('a.yaml', 1, 'cfg', 'default');
    const defaulted = manifest('b.yaml', 1, 'cfg');
    expect(findDuplicates([written, defaulted]).errors).toHaveLength(0);
    const withDefault = (m: Manifest) => identityKey({ ...m.ref, namespace: m.ref.namespace ?? 'default' });
    const { unique, errors } = findDuplicates([written, defaulted], withDefault);
    expect(unique).toEqual([written]);
    expect(errors[0]!.message).toContain('b.yaml:1');
    expect(errors[0]!.message).toContain('a.yaml:1');
  });
});
