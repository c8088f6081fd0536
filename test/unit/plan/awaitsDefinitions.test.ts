import { describe, expect, it } from 'vitest';
import { parseManifests } from '../../../lib/manifests';
import type { TrackOwner } from '../../../lib/ownership/ownershipTable';
import { awaitsDefinitions, definedKind, pendingDefinitions } from '../../../lib/plan/awaitsDefinitions';
import { planManifests } from '../../../lib/plan/planManifests';
import type { PlannedObject } from '../../../lib/plan/plannedObject';
import { coreKinds, discoveryOf, type ServedKinds } from '../../support/servedKinds';

// Which of a commit's changed objects can be dry-run before anything of it is written.

const track: TrackOwner = {
  kind: 'ClusterGitTrack',
  apiVersion: 'lightkeeper.dev/v1alpha1',
  name: 'platform',
  uid: 'u',
};
const served: ServedKinds = {
  ...coreKinds,
  'example.com/v1/Widget': {
    group: 'example.com',
    version: 'v1',
    kind: 'Widget',
    plural: 'widgets',
    namespaced: true,
  },
};
const isServed = (p: PlannedObject) =>
  served[`${p.manifest.ref.apiVersion}/${p.manifest.ref.kind}`] !== undefined;

const crd = (group: string, kind: string, version = 'v1') => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ${kind.toLowerCase()}s.${group}}
spec:
  group: ${group}
  scope: Namespaced
  names: {kind: ${kind}, plural: ${kind.toLowerCase()}s}
  versions: [{name: ${version}, served: true, storage: true}]
`;

function plan(...docs: string[]): Record<string, PlannedObject> {
  const { manifests } = parseManifests([{ path: 'all.yaml', content: docs.join('---\n') }]);
  const planned = planManifests(manifests, {
    track,
    config: { gitTrackMode: 'Enabled', clusterGitTrackMode: 'IncludeNamespaced' },
    discovery: discoveryOf(served),
    ignoreRules: [],
    digestKey: Buffer.alloc(32, 1),
  });
  return Object.fromEntries(planned.planned.map((p) => [p.subject, p]));
}

const objects = plan(
  'apiVersion: v1\nkind: Namespace\nmetadata: {name: fresh}\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: fresh}\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b, namespace: old}\n',
  crd('example.com', 'Widget'),
  'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: old}\n',
  crd('example.org', 'Gadget'),
  'apiVersion: example.org/v1\nkind: Gadget\nmetadata: {name: g, namespace: old}\n',
);
const all = Object.values(objects);
const get = (subject: string) => {
  const p = objects[subject];
  if (!p) throw new Error(`${subject} not planned: ${Object.keys(objects).join(', ')}`);
  return p;
};

describe('pendingDefinitions', () => {
  it('names the namespaces that do not exist and the kinds whose CRD the commit writes', () => {
    const pending = pendingDefinitions(all, () => false);
    expect([...pending.namespaces]).toEqual(['fresh']);
    expect([...pending.kinds].sort()).toEqual(['example.com/Widget', 'example.org/Gadget']);
    expect(pendingDefinitions(all, (n) => n === 'fresh').namespaces.size).toBe(0);
  });

  it('reads the kind of a CRD only', () => {
    expect(definedKind(get('CustomResourceDefinition.apiextensions.k8s.io/widgets.example.com'))).toBe(
      'example.com/Widget',
    );
    expect(definedKind(get('ConfigMap/old/b'))).toBeUndefined();
  });
});

describe('awaitsDefinitions', () => {
  const waits = (subject: string, changed: PlannedObject[], exists = () => false) =>
    awaitsDefinitions(get(subject), pendingDefinitions(changed, exists), isServed(get(subject)));

  it('never holds back a namespace or CRD', () => {
    for (const p of all.filter((q) => q.stage === 'definitions')) expect(waits(p.subject, all)).toBe(false);
  });

  it('holds back what lives in a namespace the commit creates, not what lives in one that exists', () => {
    expect(waits('ConfigMap/fresh/a', all)).toBe(true);
    expect(waits('ConfigMap/fresh/a', all, () => true)).toBe(false);
    expect(waits('ConfigMap/old/b', all)).toBe(false);
  });

  it('holds back custom resources whose CRD is new or changed, or whose type is not served', () => {
    expect(waits('Widget.example.com/old/w', all)).toBe(true);
    expect(waits('Gadget.example.org/old/g', all)).toBe(true);
    // Their CRDs unchanged (in sync): a served type is validated at once, one not served yet still waits.
    const unchanged = all.filter((p) => p.stage !== 'definitions');
    expect(waits('Widget.example.com/old/w', unchanged)).toBe(false);
    expect(waits('Gadget.example.org/old/g', unchanged)).toBe(true);
  });
});
