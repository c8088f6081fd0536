// "Pruned" means deleted. A stale tracking object whose type discovery does not list now (an
// aggregated API briefly down, a CRD version no longer served) proves nothing about its child: the
// child is not counted as pruned, its tracking object stays, and the summary, the Pruned condition
// and an Event say the type is unavailable. Once the kind is served again, in any version, a later
// run prunes it.
import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../lib/cli/formatSummary';
import { diffTrack } from '../../../lib/diff/diffTrack';
import { Discovery } from '../../../lib/kube/discovery';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { eventually, freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, createGitTrack, includeNamespaced, trackStatus, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { createRole, grant } from '../../support/tenancy';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const crdPath = (group: string) => `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.${group}`;

/** Gadgets stored as v1 and served as v1 and v2 (same schema, no conversion needed). */
async function installGadgets(): Promise<string> {
  const group = `${uniqueName('unserved')}.example.com`;
  const version = (name: string, storage: boolean) => ({
    name,
    served: true,
    storage,
    schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
  });
  await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    body: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `gadgets.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { kind: 'Gadget', plural: 'gadgets', singular: 'gadget', listKind: 'GadgetList' },
        versions: [version('v1', true), version('v2', false)],
      },
    },
  });
  await serve(group, { v1: true, v2: true });
  return group;
}

/** Serves (or stops serving) each version, and waits until discovery says so. */
async function serve(group: string, served: { v1: boolean; v2: boolean }): Promise<void> {
  await client.request('PATCH', crdPath(group), {
    contentType: 'application/json-patch+json',
    body: [
      { op: 'replace', path: '/spec/versions/0/served', value: served.v1 },
      { op: 'replace', path: '/spec/versions/1/served', value: served.v2 },
    ],
  });
  await eventually(`discovery lists ${group} v1 ${served.v1}, v2 ${served.v2}`, async () => {
    const discovery = await new Discovery(client).refresh();
    const lists = (version: string) => discovery.resourceFor(`${group}/${version}`, 'Gadget') !== undefined;
    return lists('v1') === served.v1 && lists('v2') === served.v2;
  });
}

const gadgetPath = (group: string, ns: string, version = 'v1') =>
  resourcePath({ apiVersion: `${group}/${version}`, plural: 'gadgets', namespace: ns, name: 'g' });

/** Children named by the tracking objects in `ns` (one deleted with orphan propagation may linger, being deleted). */
const trackedNames = async (ns: string) =>
  (
    await client.get<{
      items: Array<{ metadata: { deletionTimestamp?: string }; spec: { target: { name: string } } }>;
    }>(resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }))
  ).items
    .filter((t) => !t.metadata.deletionTimestamp)
    .map((t) => t.spec.target.name)
    .sort();

describe('a stale object whose type is not served', () => {
  it('is not pruned: its tracking object stays, the summary says unavailable; served again, it is pruned', async () => {
    const group = await installGadgets();
    const ns = await freshNamespace(client, 'unserved');
    await createRole(client, ns, 'gadgets', [{ apiGroups: [group], resources: ['gadgets'], verbs: ['*'] }]);
    await grant(client, ns, { role: 'gadgets' });
    const repo = createRepo(server, uniqueName('unserved'));
    const gadget = { apiVersion: `${group}/v2`, kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 1 } };
    commit(repo, { 'a.yaml': yamlOf(configMap('a')), 'g.yaml': yamlOf(gadget) }, 'two');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const first = await e.run(track);
    expect(first.errors).toEqual([]);
    expect(first).toMatchObject({ result: 'Succeeded', counts: { applied: 2 } });
    const uid = (await client.get<{ metadata: { uid: string } }>(gadgetPath(group, ns))).metadata.uid;

    // Gadgets leave discovery, in every version; the object stays in storage.
    await serve(group, { v1: false, v2: false });
    const head = commit(repo, { 'g.yaml': null }, 'drop the gadget');

    const diff = await diffTrack(client, includeNamespaced, { track, commit: head });
    expect(diff.pruned).toEqual([
      { subject: `Gadget/${ns}/g`, refused: expect.stringContaining('is not served') },
    ]);

    const summary = await e.run(track);
    expect(summary).toMatchObject({ result: 'Succeeded', counts: { pruned: 0, unavailable: 1, inSync: 1 } });
    expect(summary.changes).toContainEqual({
      subject: `Gadget.${group}/${ns}/g`,
      action: 'unavailable',
      message: `Gadget ${group}/v2 is not served by the API server now, in any version: not pruned, its tracking object is kept until the type is served again`,
    });
    expect(formatSummary(summary)).toMatch(/0 pruned, 1 unavailable/);
    expect(formatSummary(summary)).toContain(
      `not pruned: type not served now (tracking object kept):\n  Gadget.${group}/${ns}/g`,
    );
    expect(await trackedNames(ns)).toEqual(['a', 'g']);
    expect((await trackStatus(client, track)).conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'Pruned', status: 'False', reason: 'TypeUnavailable' }),
        expect.objectContaining({ type: 'Ready', status: 'True' }),
      ]),
    );
    // Still not served: the same, and no second Event; a no-op otherwise.
    const again = await e.run(track);
    expect(again).toMatchObject({ counts: { pruned: 0, unavailable: 1 }, writes: { objects: 0 } });
    const events = await client.get<{ items: Array<{ reason: string; message: string }> }>(
      `/api/v1/namespaces/${ns}/events`,
    );
    expect(events.items.filter((ev) => ev.reason === 'PruneUnavailable')).toHaveLength(1);

    // Served again, in v1 only: the object was there all along, and is pruned read as v1.
    await serve(group, { v1: true, v2: false });
    expect((await client.get<{ metadata: { uid: string } }>(gadgetPath(group, ns))).metadata.uid).toBe(uid);
    const served = await e.run(track);
    expect(served).toMatchObject({ result: 'Succeeded', counts: { pruned: 1, unavailable: 0 } });
    expect(served.changes).toContainEqual({ subject: `Gadget.${group}/${ns}/g`, action: 'deleted' });
    await eventually(
      'the gadget is gone',
      async () => (await client.find(gadgetPath(group, ns))) === undefined,
    );
    await eventually('its tracking object is gone', async () => (await trackedNames(ns)).length === 1);
    await client.request('DELETE', crdPath(group));
  });
});
