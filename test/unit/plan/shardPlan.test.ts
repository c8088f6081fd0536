import { describe, expect, it } from 'vitest';
import { parseManifests } from '../../../lib/manifests';
import type { TrackOwner } from '../../../lib/ownership/ownershipTable';
import { planManifests } from '../../../lib/plan/planManifests';
import { namespacedCount, planDigest, shardSize, splitShards } from '../../../lib/plan/shardPlan';
import { coreKinds, discoveryOf } from '../../support/servedKinds';

const served = {
  ...coreKinds,
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'ValidatingWebhookConfiguration',
    plural: 'validatingwebhookconfigurations',
    namespaced: false,
  },
};
const track: TrackOwner = {
  kind: 'ClusterGitTrack',
  apiVersion: 'lightkeeper.dev/v1alpha1',
  name: 'p',
  uid: 'u',
};

function plan(docs: string[], key = Buffer.alloc(32, 1)) {
  const { manifests } = parseManifests([{ path: 'all.yaml', content: docs.join('---\n') }]);
  return planManifests(manifests, {
    track,
    config: { gitTrackMode: 'Enabled', clusterGitTrackMode: 'IncludeNamespaced' },
    discovery: discoveryOf(served),
    ignoreRules: [],
    digestKey: key,
  }).planned;
}
const cm = (ns: string, name: string, v = '1') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}, namespace: ${ns}}\ndata: {v: "${v}"}\n`;
const ns = (name: string) => `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${name}}\n`;

describe('splitShards', () => {
  it('keeps Namespaces and cluster-scoped objects for the coordinator, one shard per namespace, interceptors last', () => {
    const hook =
      'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: guard}\n';
    const planned = plan([hook, ns('a'), ns('b'), cm('a', 'x'), cm('a', 'q'), cm('b', 'x')]);
    const { definitions, shards, last } = splitShards(planned, 2);
    expect(definitions.map((d) => d.subject)).toEqual(['Namespace/a', 'Namespace/b']);
    expect(last.map((d) => d.subject)).toEqual([
      'ValidatingWebhookConfiguration.admissionregistration.k8s.io/guard',
    ]);
    expect([...shards].map(([id, objects]) => [id, objects.map((o) => o.subject)])).toEqual([
      ['a', ['ConfigMap/a/x', 'ConfigMap/a/q']],
      ['b', ['ConfigMap/b/x']],
    ]);
  });

  it('splits a large namespace by a stable hash of kind/name, every object in exactly one part', () => {
    const docs = Array.from({ length: 40 }, (_, i) => cm('big', `cm-${i}`));
    const planned = plan(docs);
    const { shards } = splitShards(planned, 10);
    expect(shards.size).toBeGreaterThanOrEqual(3);
    expect([...shards.keys()].every((id) => /^big~\d$/.test(id))).toBe(true);
    const all = [...shards.values()].flat().map((o) => o.subject);
    expect(new Set(all).size).toBe(40);
    // Stable: the same objects, in another order and with other contents, land in the same parts.
    const again = splitShards(plan(docs.reverse().map((d) => d.replace('v: "1"', 'v: "2"'))), 10).shards;
    const part = (m: typeof shards) => new Map([...m].flatMap(([id, os]) => os.map((o) => [o.subject, id])));
    expect(part(again)).toEqual(part(shards));
  });

  it('packs small namespaces, neighbours in name order, up to the size; a large one breaks the pack', () => {
    const docs = [
      ...['a', 'b', 'c'].flatMap((n) => [cm(n, 'p'), cm(n, 'q')]),
      ...Array.from({ length: 9 }, (_, i) => cm('d', `cm-${i}`)),
      cm('e', 'x'),
      ...['f', 'g'].flatMap((n) => [cm(n, 'p'), cm(n, 'q'), cm(n, 'r')]),
    ];
    const { shards } = splitShards(plan(docs), 5);
    const sizes = new Map([...shards].map(([id, objects]) => [id, objects.length]));
    expect([...sizes.keys()].filter((id) => !id.startsWith('d~'))).toEqual(['a..b', 'c', 'e..f', 'g']);
    expect(sizes.get('a..b')).toBe(4);
    expect(sizes.get('e..f')).toBe(4);
    expect([...sizes].filter(([id]) => id.startsWith('d~')).reduce((n, [, k]) => n + k, 0)).toBe(9);
    expect([...sizes.values()].every((k) => k <= 5)).toBe(true);
    // Every object in exactly one shard.
    expect([...shards.values()].flat().length).toBe(docs.length);
  });
});

describe('shardSize', () => {
  const namespaces = (counts: number[]) =>
    plan(counts.flatMap((k, i) => Array.from({ length: k }, (_, j) => cm(`ns-${i}`, `cm-${j}`))));

  it('is the smallest size that cuts the namespaced objects into one wave of the fan-out, never above the threshold', () => {
    // 10 namespaces of 5 and 4: 45 objects over 2 runs: 23 packs 5+4+5+4+5 and the rest (22 would spill a third shard).
    const planned = namespaces([5, 4, 5, 4, 5, 4, 5, 4, 5, 4]);
    expect(shardSize(planned, 100, 2)).toBe(23);
    expect(splitShards(planned, 23).shards.size).toBe(2);
    expect(splitShards(planned, 22).shards.size).toBe(3);
    expect(shardSize(planned, 10, 2)).toBe(10);
    // As many runs as objects: one object each, large namespaces split.
    expect(shardSize(planned, 100, 45)).toBe(1);
    // One namespace: split evenly.
    expect(shardSize(namespaces([40]), 100, 4)).toBe(10);
  });

  it('counts what shards hold: not definitions, cluster-scoped objects or interceptors', () => {
    expect(namespacedCount(plan([ns('a'), cm('a', 'p'), cm('a', 'q')]))).toBe(2);
  });
});

describe('planDigest', () => {
  it('is the same for the same plan in any order, and changes with any object or its content', () => {
    const a = plan([cm('a', 'x'), cm('a', 'q')]);
    expect(planDigest(a)).toMatch(/^[0-9a-f]{32}$/);
    expect(planDigest([...a].reverse())).toBe(planDigest(a));
    expect(planDigest(plan([cm('a', 'x'), cm('a', 'q', '2')]))).not.toBe(planDigest(a));
    expect(planDigest(plan([cm('a', 'x')]))).not.toBe(planDigest(a));
  });
});
