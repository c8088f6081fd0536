import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { pruneAnnotation, trackUidLabel } from '../../../lib/manifests/metadataKeys';
import type { TrackRef } from '../../../lib/track/trackRef';
import { eventually, freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, configMaps, createGitTrack, getLive, type Live, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { createRole, grant } from '../../support/tenancy';

// Issue 7, item 2, through the garbage collector: a child controlled by its tracking object is
// deleted with the collector's rights when its GitTrack goes (deletionPolicy Delete). So a GitTrack
// puts that owner reference only on an object its own identity could delete.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const withoutDelete = ['get', 'list', 'patch', 'create'];

/** A namespace whose `default` service account has exactly `verbs` on ConfigMaps. */
async function tenant(prefix: string, verbs: string[]) {
  const ns = await freshNamespace(client, prefix);
  await createRole(client, ns, 'configmaps', [{ apiGroups: [''], resources: ['configmaps'], verbs }]);
  await grant(client, ns, { role: 'configmaps' });
  return ns;
}

/** An administrator's ConfigMap, made before any GitTrack. */
const adminsConfigMap = (ns: string, name: string) =>
  client.request<Live>('POST', resourcePath({ ...configMaps, namespace: ns }), {
    body: configMap(name, { owner: 'admin' }),
  });

async function trackOf(ns: string, files: Record<string, object>) {
  const repo = createRepo(server, uniqueName(ns));
  commit(repo, Object.fromEntries(Object.entries(files).map(([f, o]) => [f, yamlOf(o)])), 'objects');
  const track = await createGitTrack(
    client,
    ns,
    { repository: repo.url, reference: 'main', deletionPolicy: 'Delete' },
    { access: false },
  );
  return { repo, track };
}

const trackerCount = async (ns: string) =>
  (
    await client.get<{ items: unknown[] }>(
      resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }),
    )
  ).items.length;

/** Deletes the GitTrack and waits until the collector has removed its tracking objects. */
async function deleteTrack(track: TrackRef) {
  await client.request(
    'DELETE',
    resourcePath({ ...lightkeeperResources.GitTrack, namespace: track.namespace, name: track.name }),
    { query: { propagationPolicy: 'Background' } },
  );
  const ns = track.namespace as string;
  await eventually('the collector removes the tracking objects', async () => (await trackerCount(ns)) === 0);
  // Proves the collector has processed the graph since: a dependent of a missing owner is collected.
  const canary = uniqueName('canary');
  await client.request('POST', resourcePath({ ...configMaps, namespace: ns }), {
    body: {
      ...configMap(canary),
      metadata: {
        name: canary,
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'absent', uid: randomUUID() }],
      },
    },
  });
  await eventually(
    'the collector deletes the canary',
    async () => !(await getLive(client, configMaps, canary, ns)),
  );
}

const refused = (ns: string, name: string) =>
  `ServiceAccount ${ns}/default may not delete ConfigMap ${ns}/${name}; a GitTrack manages only objects its identity could delete itself (grant delete, or annotate ${pruneAnnotation}: disabled to apply it without an owner reference)`;

describe('a GitTrack whose identity may not delete an object', () => {
  it('neither adopts nor creates it, so deleting the GitTrack cannot cascade to it', async () => {
    const ns = await tenant('no-adopt', withoutDelete);
    const victim = await adminsConfigMap(ns, 'victim');
    const { track } = await trackOf(ns, {
      'victim.yaml': configMap('victim'),
      'fresh.yaml': configMap('fresh'),
    });

    const summary = await e.run(track);
    expect(summary).toMatchObject({ result: 'Failed', counts: { applied: 0, failed: 2 } });
    for (const name of ['victim', 'fresh']) {
      expect(summary.changes.find((c) => c.subject === `ConfigMap/${ns}/${name}`)).toMatchObject({
        action: 'failed',
        message: expect.stringContaining(refused(ns, name)),
      });
    }
    const untouched = async () => {
      const live = await getLive(client, configMaps, 'victim', ns);
      expect(live?.metadata.uid).toBe(victim.metadata.uid);
      expect(live?.metadata.ownerReferences ?? []).toEqual([]);
      expect(live?.data).toEqual({ owner: 'admin' });
    };
    await untouched();
    // The tenant may create it, but could not delete it: not created either.
    expect(await getLive(client, configMaps, 'fresh', ns)).toBeUndefined();
    // Asked before anything was written: no tracking object stands for either.
    expect(await trackerCount(ns)).toBe(0);

    await deleteTrack(track);
    await untouched();
  });

  it('applies it without an owner reference when annotated prune: disabled, and it survives', async () => {
    const ns = await tenant('no-adopt-protected', withoutDelete);
    const victim = await adminsConfigMap(ns, 'victim');
    const protectedVictim = {
      ...configMap('victim', { owner: 'git' }),
      metadata: { name: 'victim', annotations: { [pruneAnnotation]: 'disabled' } },
    };
    const { repo, track } = await trackOf(ns, { 'victim.yaml': protectedVictim });

    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
    const applied = await getLive(client, configMaps, 'victim', ns);
    expect(applied?.metadata.uid).toBe(victim.metadata.uid);
    expect(applied?.metadata.ownerReferences ?? []).toEqual([]);
    expect(applied?.metadata.labels?.[trackUidLabel]).toBeDefined();
    expect(applied?.data).toEqual({ owner: 'git' });

    // Dropping the protection would give it our owner reference for the first time: refused too.
    commit(repo, { 'victim.yaml': yamlOf(configMap('victim', { owner: 'git' })) }, 'unprotect');
    const unprotected = await e.run(track);
    expect(unprotected.changes).toEqual([
      expect.objectContaining({ action: 'failed', message: expect.stringContaining(refused(ns, 'victim')) }),
    ]);
    expect((await getLive(client, configMaps, 'victim', ns))?.metadata.ownerReferences ?? []).toEqual([]);

    await deleteTrack(track);
    const after = await getLive(client, configMaps, 'victim', ns);
    expect(after?.metadata.uid).toBe(victim.metadata.uid);
    expect(after?.data).toEqual({ owner: 'git' });
  });
});

describe('a GitTrack whose identity may delete an object', () => {
  it('adopts it, stays at zero writes when nothing changed, and takes it along when deleted', async () => {
    const ns = await tenant('adopt', [...withoutDelete, 'delete']);
    const victim = await adminsConfigMap(ns, 'victim');
    const { track } = await trackOf(ns, { 'victim.yaml': configMap('victim') });

    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
    const adopted = await getLive(client, configMaps, 'victim', ns);
    expect(adopted?.metadata.uid).toBe(victim.metadata.uid);
    expect(adopted?.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'GitTrackObject', controller: true }),
    ]);
    // Only a new owner reference is worth asking about: a no-op asks nothing.
    expect(await e.run(track)).toMatchObject({ counts: { inSync: 1 }, writes: { objects: 0 } });

    await deleteTrack(track);
    await eventually(
      'the adopted object follows its GitTrack',
      async () => !(await getLive(client, configMaps, 'victim', ns)),
    );
  });
});
