import { describe, expect, it } from 'vitest';
import type { PlannedObject } from '../../../lib/plan/plannedObject';
import { maxListedNamespaces, shardNamespaces } from '../../../lib/reconcile/reconcileShard';

const object = (namespace: string | undefined, namespaced = true) =>
  ({
    manifest: { ref: { kind: 'ConfigMap', name: 'x', ...(namespace ? { namespace } : {}) } },
    resource: { apiVersion: 'v1', plural: 'configmaps', namespaced },
  }) as unknown as PlannedObject;

describe('shardNamespaces', () => {
  it('lists the namespaces of a shard, once each, sorted', () => {
    expect(shardNamespaces([object('b'), object('a'), object('b')])).toEqual(['a', 'b']);
  });

  it('reads the whole track when an object is cluster-scoped, or the namespaces are too many', () => {
    expect(shardNamespaces([object('a'), object(undefined, false)])).toBeUndefined();
    const many = Array.from({ length: maxListedNamespaces + 1 }, (_, i) => object(`ns-${i}`));
    expect(shardNamespaces(many)).toBeUndefined();
    expect(shardNamespaces(many.slice(1))).toHaveLength(maxListedNamespaces);
  });
});
