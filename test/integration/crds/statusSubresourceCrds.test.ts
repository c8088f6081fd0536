// Tracking-object CRDs from before lightkeeper took their status inside the object serve a `status`
// subresource, which a create and a patch of the object ignore, and keep conditions as a list keyed
// by type. Functions upgraded before the CRDs must still record every apply: read from discovery,
// status then goes through the subresource, at one more request per new object. Objects written
// under those CRDs must go on reconciling once crds/ is applied over them (the upgrade). Integration
// test files run one at a time, so this file can put the older CRDs in place and restore crds/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Discovery } from '../../../lib/kube/discovery';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { LiveTracker } from '../../../lib/tracker/liveTracker';
import { eventually, freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, createGitTrack, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const trackerCrds = ['gittrackobjects.lightkeeper.dev', 'clustergittrackobjects.lightkeeper.dev'];
const crdPath = (name: string) => `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`;

const statusServed = async () => {
  const discovery = await new Discovery(client).refresh();
  return ['GitTrackObject', 'ClusterGitTrackObject'].every((kind) =>
    discovery.hasSubresource(lightkeeperResources.GitTrackObject.apiVersion, kind, 'status'),
  );
};

const conditionsSchema = '/spec/versions/0/schema/openAPIV3Schema/properties/status/properties/conditions';
let oldCrdsInPlace = false;

async function putOldCrds() {
  for (const name of trackerCrds) {
    await client.request('PATCH', crdPath(name), {
      contentType: 'application/json-patch+json',
      body: [
        { op: 'add', path: '/spec/versions/0/subresources', value: { status: {} } },
        { op: 'add', path: `${conditionsSchema}/x-kubernetes-list-type`, value: 'map' },
        { op: 'add', path: `${conditionsSchema}/x-kubernetes-list-map-keys`, value: ['type'] },
      ],
    });
  }
  oldCrdsInPlace = true;
  await eventually('the API server serves the status subresource', statusServed);
}

/** crds/ as `lightkeeper` installs it, over the older definitions. */
async function restoreCrds() {
  if (!oldCrdsInPlace) return;
  for (const name of trackerCrds) {
    await client.request('PATCH', crdPath(name), {
      contentType: 'application/json-patch+json',
      body: [
        { op: 'remove', path: '/spec/versions/0/subresources' },
        { op: 'remove', path: `${conditionsSchema}/x-kubernetes-list-type` },
        { op: 'remove', path: `${conditionsSchema}/x-kubernetes-list-map-keys` },
      ],
    });
  }
  oldCrdsInPlace = false;
  await eventually('the API server serves crds/ again', async () => !(await statusServed()));
}

describe('tracking-object CRDs with a status subresource (before this lightkeeper)', () => {
  beforeAll(putOldCrds);
  afterAll(restoreCrds);

  it('records every apply through the subresource; a no-op writes nothing', async () => {
    const ns = await freshNamespace(client, 'oldcrds');
    const repo = createRepo(server, uniqueName('oldcrds'));
    commit(repo, { 'a.yaml': yamlOf(configMap('a'), configMap('b')) }, 'first');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });

    const first = await e.run(track);
    expect(first.result).toBe('Succeeded');
    // Per object: review the GitTrack's rights to apply and delete the child, create the tracking
    // object, apply the child, write the status through the subresource.
    expect(first.writes.objects).toBe(2 * 5);
    const trackers = await client.get<{ items: LiveTracker[] }>(
      resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }),
    );
    expect(trackers.items).toHaveLength(2);
    for (const t of trackers.items) {
      expect(t.status).toMatchObject({
        lastAppliedDigest: t.spec.digest,
        lastAppliedFieldsDigest: expect.stringMatching(/^sha256:/),
        conditions: [
          expect.objectContaining({ type: 'InSync', status: 'True' }),
          expect.objectContaining({ type: 'Healthy', status: 'True' }),
        ],
      });
    }
    const again = await e.run(track);
    expect(again).toMatchObject({ result: 'Succeeded', writes: { objects: 0, health: 0 } });
  });

  // Last in this file: it puts crds/ back in place.
  it('objects written under the older CRDs reconcile once crds/ is applied over them', async () => {
    const ns = await freshNamespace(client, 'upgradecrds');
    const repo = createRepo(server, uniqueName('upgradecrds'));
    commit(repo, { 'a.yaml': yamlOf(configMap('a'), configMap('b')) }, 'first');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).result).toBe('Succeeded');

    await restoreCrds();
    const second = commit(
      repo,
      { 'a.yaml': yamlOf(configMap('a', { key: 'changed' }), configMap('b')) },
      'second',
    );
    const run = await e.run(track);
    expect(run).toMatchObject({ result: 'Succeeded', errors: [] });
    const trackers = await client.get<{ items: LiveTracker[] }>(
      resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }),
    );
    const a = trackers.items.find((t) => t.spec.target.name === 'a');
    expect(a?.status).toMatchObject({
      lastAppliedCommit: second,
      conditions: [
        expect.objectContaining({ type: 'InSync', status: 'True', message: `applied at ${second}` }),
        expect.objectContaining({ type: 'Healthy', status: 'True' }),
      ],
    });
    const live = await client.get<{ data: Record<string, string> }>(
      resourcePath({ apiVersion: 'v1', plural: 'configmaps', namespace: ns, name: 'a' }),
    );
    expect(live.data).toEqual({ key: 'changed' });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', writes: { objects: 0, health: 0 } });
  });
});
