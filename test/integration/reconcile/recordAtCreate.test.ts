// A new object costs two requests: its tracking object is created with the record of the apply
// that follows (crds/ serves tracking-object status inside the object), then the child is applied.
// What that record leaves out, the field set the server answers with, is made up for by the
// in-sync check comparing the manifest with the child's managed fields: drift is found on both
// kinds of record, a failed apply is never left looking applied, and `kubectl get gto` shows the
// same columns as before.
import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { trackingObjectName } from '../../../lib/ownership/trackingObjectName';
import type { LiveTracker } from '../../../lib/tracker/liveTracker';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, configMaps, createGitTrack, getLive, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

async function gitTrackWith(files: Record<string, string>) {
  const ns = await freshNamespace(client, 'record');
  const repo = createRepo(server, uniqueName('record'));
  commit(repo, files, 'first');
  const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
  return { ns, repo, track };
}

const trackers = (ns: string) => resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns });
/** The tracking object of ConfigMap `name`. */
const trackerOf = (ns: string, name: string) =>
  client.get<LiveTracker>(
    resourcePath({
      ...lightkeeperResources.GitTrackObject,
      namespace: ns,
      name: trackingObjectName({ group: '', kind: 'ConfigMap', namespace: ns, name }),
    }),
  );

const editByHand = async (ns: string, name: string, change: (live: Record<string, unknown>) => void) => {
  const path = resourcePath({ ...configMaps, namespace: ns, name });
  const live = await client.get<Record<string, unknown>>(path);
  change(live);
  await client.request('PUT', path, { body: live });
};

describe('a tracking object created with its record', () => {
  it('costs no status write for a new object, shows the same columns, and a no-op writes nothing', async () => {
    const { ns, track } = await gitTrackWith({
      'a.yaml': yamlOf(configMap('a'), configMap('b'), configMap('c')),
    });
    const first = await e.run(track);
    expect(first.result).toBe('Succeeded');
    // Per object: the reviews whether the GitTrack's ServiceAccount may apply and delete the child
    // (lib/identity/mayWrite.ts, mayDelete.ts), the tracking object created with its status, the
    // child's apply.
    expect(first.writes.objects).toBe(4 * 3);

    const tracker = await trackerOf(ns, 'a');
    expect(tracker.status).toMatchObject({
      lastAppliedDigest: tracker.spec.digest,
      lastAppliedCommit: tracker.spec.source.commit,
      conditions: [
        expect.objectContaining({ type: 'InSync', status: 'True', reason: 'Applied' }),
        expect.objectContaining({ type: 'Healthy', status: 'True' }),
      ],
    });
    expect(tracker.status).not.toHaveProperty('lastAppliedFieldsDigest');

    const table = await client.get<{
      columnDefinitions: Array<{ name: string }>;
      rows: Array<{ cells: unknown[] }>;
    }>(trackers(ns), { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    const column = (name: string) => table.columnDefinitions.findIndex((c) => c.name === name);
    expect(table.rows).toHaveLength(3);
    for (const row of table.rows) {
      expect(row.cells[column('InSync')]).toBe('True');
      expect(row.cells[column('Healthy')]).toBe('True');
    }

    const again = await e.run(track);
    expect(again).toMatchObject({ counts: { inSync: 3, applied: 0 }, writes: { objects: 0 } });
  });

  it('finds drift by the manifest after a create, and by the recorded field set after a later apply', async () => {
    const labelled = {
      ...configMap('web', { k: 'git' }),
      metadata: { name: 'web', labels: { tier: 'front' } },
    };
    const { ns, track } = await gitTrackWith({ 'web.yaml': yamlOf(labelled) });
    await e.run(track);

    // A value changed by hand: the field left lightkeeper's managed fields.
    await editByHand(ns, 'web', (live) => {
      live.data = { k: 'by hand' };
    });
    const byValue = await e.run(track);
    expect(byValue.counts).toMatchObject({ drifted: 1, applied: 1 });
    expect((await getLive(client, configMaps, 'web', ns))?.data).toEqual({ k: 'git' });
    // That apply wrote the status after the server's answer: the exact field set is recorded now.
    expect((await trackerOf(ns, 'web')).status?.lastAppliedFieldsDigest).toMatch(/^sha256:/);
    expect((await e.run(track)).writes.objects).toBe(0);

    // A label removed by hand: found by the recorded field set this time.
    await editByHand(ns, 'web', (live) => {
      const metadata = live.metadata as { labels: Record<string, string> };
      delete metadata.labels.tier;
    });
    const byLabel = await e.run(track);
    expect(byLabel.counts).toMatchObject({ drifted: 1, applied: 1 });
    const live = await getLive(client, configMaps, 'web', ns);
    expect(live?.metadata.labels).toMatchObject({ tier: 'front' });
  });

  it('finds a label removed by hand from an object just created', async () => {
    const labelled = { ...configMap('fresh'), metadata: { name: 'fresh', labels: { tier: 'back' } } };
    const { ns, track } = await gitTrackWith({ 'fresh.yaml': yamlOf(labelled) });
    await e.run(track);
    expect((await trackerOf(ns, 'fresh')).status).not.toHaveProperty('lastAppliedFieldsDigest');
    await editByHand(ns, 'fresh', (live) => {
      const metadata = live.metadata as { labels: Record<string, string> };
      delete metadata.labels.tier;
    });
    const summary = await e.run(track);
    expect(summary.counts).toMatchObject({ drifted: 1, applied: 1 });
    expect((await getLive(client, configMaps, 'fresh', ns))?.metadata.labels).toMatchObject({ tier: 'back' });
  });

  it('leaves no tracking object for a child the server refused to create', async () => {
    const refused = { ...configMap('bad'), data: { 'not a key!': 'x' } };
    const { ns, track } = await gitTrackWith({ 'bad.yaml': yamlOf(refused) });
    const summary = await e.run(track);
    expect(summary.changes).toEqual([expect.objectContaining({ action: 'failed' })]);
    await expect(trackerOf(ns, 'bad')).rejects.toMatchObject({ status: 404 });
    expect(await getLive(client, configMaps, 'bad', ns)).toBeUndefined();
  });

  it('records the failure on a tracking object whose child was applied before', async () => {
    const { ns, track, repo } = await gitTrackWith({ 'later.yaml': yamlOf(configMap('later')) });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded' });
    commit(repo, { 'later.yaml': yamlOf({ ...configMap('later'), data: { 'not a key!': 'x' } }) }, 'bad');
    expect((await e.run(track)).changes).toEqual([expect.objectContaining({ action: 'failed' })]);
    const tracker = await trackerOf(ns, 'later');
    expect(tracker.status?.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'InSync', status: 'False', reason: 'ApplyFailed' }),
      ]),
    );
  });
});
