import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { updateStrategyAnnotation } from '../../../lib/manifests/metadataKeys';
import { freshNamespace, kubeconfig, localControlPlane, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createClusterGitTrack,
  createGitTrack,
  getLive,
  patchTrackSpec,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

async function gitTrackWith(
  files: Record<string, string>,
  spec: Record<string, unknown> = {},
  options: { access?: false } = {},
) {
  const ns = await freshNamespace(client, 'apply');
  const repo = createRepo(server, uniqueName('apply'));
  const sha = commit(repo, files, 'first');
  const track = await createGitTrack(
    client,
    ns,
    { repository: repo.url, reference: 'main', ...spec },
    options,
  );
  return { ns, repo, sha, track };
}

const replaceConfigMap = async (ns: string, name: string, data: Record<string, string>) => {
  const live = await getLive(client, configMaps, name, ns);
  await client.request('PUT', resourcePath({ ...configMaps, namespace: ns, name }), {
    body: { ...live, data },
  });
};

describe('apply', () => {
  it('sends fields the client library does not know to the API server unchanged', async () => {
    const name = `${uniqueName('probe')}.csi.example.com`;
    const driver = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name },
      spec: { tokenRequests: [{ audience: 'lightkeeper' }], serviceAccountTokenInSecrets: true },
    };
    // Sent through the client library's typed API, the field is silently dropped
    // (kubernetes-client/javascript#2962)…
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(kubeconfig());
    const typed = { ...driver, metadata: { name: `typed-${name}` } };
    await kc.makeApiClient(k8s.StorageV1Api).createCSIDriver({ body: typed });
    const csiDrivers = { apiVersion: 'storage.k8s.io/v1', plural: 'csidrivers' };
    expect((await getLive(client, csiDrivers, typed.metadata.name))?.spec).not.toHaveProperty(
      'serviceAccountTokenInSecrets',
    );
    const repo = createRepo(server, uniqueName('unknown-field'));
    commit(repo, { 'driver.yaml': yamlOf(driver) }, 'csi driver');
    const track = await createClusterGitTrack(client, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).result).toBe('Succeeded');
    // …and it arrives anyway.
    const live = await getLive(client, csiDrivers, name);
    expect(live?.spec).toMatchObject({ serviceAccountTokenInSecrets: true });
  });

  it('makes no write at all when neither git nor the cluster changed', async () => {
    const { track } = await gitTrackWith({ 'a.yaml': yamlOf(configMap('a'), configMap('b')) });
    const first = await e.run(track);
    expect(first.writes.objects).toBeGreaterThan(0);
    const again = await e.run(track);
    expect(again).toMatchObject({
      result: 'Succeeded',
      counts: { applied: 0, inSync: 2 },
      writes: { objects: 0 },
    });
    expect(again.changes.map((c) => c.action)).toEqual(['unchanged', 'unchanged']);
  });

  it('corrects an object edited or deleted by hand, and says it drifted', async () => {
    const { ns, track } = await gitTrackWith({
      'a.yaml': yamlOf(configMap('edited', { k: 'git' }), configMap('deleted')),
    });
    await e.run(track);
    await replaceConfigMap(ns, 'edited', { k: 'by hand' });
    await client.request('DELETE', resourcePath({ ...configMaps, namespace: ns, name: 'deleted' }));
    const summary = await e.run(track, { mode: 'drift' });
    expect(summary.counts).toMatchObject({ drifted: 2, applied: 2 });
    expect((await getLive(client, configMaps, 'edited', ns))?.data).toEqual({ k: 'git' });
    expect(await getLive(client, configMaps, 'deleted', ns)).toBeDefined();
    expect(await trackStatus(client, track)).toMatchObject({ objectsDrifted: 2 });
    const events = await client.get<{ items: Array<{ reason: string; message: string }> }>(
      `/api/v1/namespaces/${ns}/events`,
    );
    expect(events.items.find((ev) => ev.reason === 'Drifted')?.message).toMatch(
      /re-applied 2 drifted objects/,
    );
  });

  it('creates but never changes an object with update strategy Never', async () => {
    const never = {
      ...configMap('once', { k: 'git' }),
      metadata: { name: 'once', annotations: { [updateStrategyAnnotation]: 'Never' } },
    };
    const { ns, repo, track } = await gitTrackWith({ 'once.yaml': yamlOf(never) });
    expect((await e.run(track)).changes[0]?.action).toBe('created');
    await replaceConfigMap(ns, 'once', { k: 'by hand' });
    commit(repo, { 'once.yaml': yamlOf({ ...never, data: { k: 'git, changed' } }) }, 'change');
    const summary = await e.run(track);
    expect(summary.changes[0]).toMatchObject({ action: 'skipped' });
    expect((await getLive(client, configMaps, 'once', ns))?.data).toEqual({ k: 'by hand' });
  });

  it('replaces an object only after an immutable-field refusal, with update strategy Recreate', async () => {
    const immutable = (data: Record<string, string>, strategy?: string) => ({
      ...configMap('frozen', data),
      metadata: {
        name: 'frozen',
        ...(strategy ? { annotations: { [updateStrategyAnnotation]: strategy } } : {}),
      },
      immutable: true,
    });
    const { ns, repo, track } = await gitTrackWith({ 'frozen.yaml': yamlOf(immutable({ v: '1' })) });
    await e.run(track);
    const original = await getLive(client, configMaps, 'frozen', ns);

    commit(repo, { 'frozen.yaml': yamlOf(immutable({ v: '2' })) }, 'change without Recreate');
    const refused = await e.run(track);
    expect(refused.result).toBe('Failed');
    expect(refused.changes[0]?.message).toMatch(/immutable.*lightkeeper\.dev\/update-strategy: Recreate/s);
    expect((await getLive(client, configMaps, 'frozen', ns))?.metadata.uid).toBe(original?.metadata.uid);

    commit(repo, { 'frozen.yaml': yamlOf(immutable({ v: '2' }, 'Recreate')) }, 'change with Recreate');
    const recreated = await e.run(track);
    expect(recreated.result).toBe('Succeeded');
    const replaced = await getLive(client, configMaps, 'frozen', ns);
    expect(replaced?.metadata.uid).not.toBe(original?.metadata.uid);
    expect(replaced?.data).toEqual({ v: '2' });
  });

  it('does nothing but say so when suspended', async () => {
    const { ns, track } = await gitTrackWith({ 'a.yaml': yamlOf(configMap('a')) }, { suspend: true });
    expect((await e.run(track)).result).toBe('Suspended');
    expect(await getLive(client, configMaps, 'a', ns)).toBeUndefined();
    expect((await trackStatus(client, track)).conditions).toEqual([
      expect.objectContaining({ type: 'Ready', status: 'False', reason: 'Suspended' }),
    ]);
    await patchTrackSpec(client, track, { suspend: false });
    expect((await e.run(track)).result).toBe('Succeeded');
  });

  it('reports status, counters and events', async () => {
    const { ns, sha, track } = await gitTrackWith({ 'a.yaml': yamlOf(configMap('a'), configMap('b')) });
    await e.run(track, { reason: 'test' });
    const status = await trackStatus(client, track);
    expect(status).toMatchObject({
      lastAppliedCommit: sha,
      lastAttemptedCommit: sha,
      objectsDiscovered: 2,
      objectsApplied: 2,
      objectsInSync: 2,
      objectsIgnored: 0,
      objectsFailed: 0,
      objectsPruned: 0,
      observedGeneration: 1,
    });
    expect(status.conditions.map((c) => `${c.type}=${c.status}`)).toEqual([
      'Ready=True',
      'Healthy=True',
      'Fetched=True',
      'Parsed=True',
      'Applied=True',
      'Pruned=True',
    ]);
    const events = await client.get<{ items: Array<{ reason: string; message: string; type: string }> }>(
      `/api/v1/namespaces/${ns}/events`,
    );
    expect(events.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'Normal',
          reason: 'ReconcileStarted',
          message: `reconciling ${sha} (test)`,
        }),
        expect.objectContaining({
          type: 'Normal',
          reason: 'ReconcileSucceeded',
          message: expect.stringContaining(`${sha} (test): 2 applied`),
        }),
      ]),
    );
    expect(events.items).toHaveLength(2);
    // A reconcile that changes nothing says nothing.
    await e.run(track);
    const after = await client.get<{ items: unknown[] }>(`/api/v1/namespaces/${ns}/events`);
    expect(after.items).toHaveLength(2);
  });

  it("applies children with the GitTrack's service account permissions", async () => {
    const { ns, track } = await gitTrackWith(
      { 'a.yaml': yamlOf(configMap('a')) },
      { serviceAccountName: 'deployer' },
      { access: false },
    );
    const denied = await e.run(track);
    expect(denied.result).toBe('Failed');
    expect(denied.changes[0]?.message).toMatch(
      /system:serviceaccount:.*:deployer.*forbidden|forbidden.*deployer/is,
    );
    const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}`;
    await client.request('POST', `${rbac}/roles`, {
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'configmap-writer' },
        rules: [
          {
            apiGroups: [''],
            resources: ['configmaps'],
            verbs: ['get', 'list', 'create', 'patch', 'update', 'delete'],
          },
        ],
      },
    });
    await client.request('POST', `${rbac}/rolebindings`, {
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'deployer' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'configmap-writer' },
        subjects: [{ kind: 'ServiceAccount', name: 'deployer', namespace: ns }],
      },
    });
    expect((await e.run(track)).result).toBe('Succeeded');
  });
});

describe.skipIf(!localControlPlane())('after a reconcile, the garbage collector', () => {
  it('loses nothing across three restarts', async () => {
    const ns = await freshNamespace(client, 'gc-after');
    const role = uniqueName('lk-role');
    const repo = createRepo(server, uniqueName('gc-after'));
    commit(
      repo,
      {
        'cluster.yaml': yamlOf({
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: { name: role },
          rules: [],
        }),
        'cm.yaml': yamlOf(configMap('a', {}, ns), configMap('b', {}, ns)),
      },
      'mixed',
    );
    const clusterTrack = await createClusterGitTrack(client, { repository: repo.url, reference: 'main' });
    const nsTrack = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      subPath: '',
    });
    expect((await e.run(clusterTrack)).counts.applied).toBe(3);
    const paths = [
      resourcePath({ apiVersion: 'rbac.authorization.k8s.io/v1', plural: 'clusterroles', name: role }),
      resourcePath({ ...configMaps, namespace: ns, name: 'a' }),
      resourcePath({ ...configMaps, namespace: ns, name: 'b' }),
    ];
    const uids = async () =>
      Promise.all(
        paths.map(async (p) => (await client.find<{ metadata: { uid: string } }>(p))?.metadata.uid),
      );
    const before = await uids();
    expect(before.every(Boolean)).toBe(true);
    const plane = localControlPlane()!;
    for (let i = 0; i < 3; i++) {
      await plane.restartGarbageCollector();
      // A second reconcile by the GitTrack of the same namespace must not steal or break anything either.
      if (i === 0) expect((await e.run(nsTrack)).result).toBe('Failed');
      await new Promise((r) => setTimeout(r, 2000));
      expect(await uids()).toEqual(before);
    }
  });
});
