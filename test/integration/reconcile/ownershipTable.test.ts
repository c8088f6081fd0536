import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { trackUidLabel } from '../../../lib/manifests/metadataKeys';
import { ignoreReasons } from '../../../lib/ownership/ownershipTable';
import { trackingObjectName } from '../../../lib/ownership/trackingObjectName';
import type { DeploymentConfig } from '../../../lib/settings/deploymentModes';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createClusterGitTrack,
  createGitTrack,
  engine,
  getLive,
  type Live,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

// Every cell of the ownership table, on the real API server: where each manifest's tracking object
// lives, who owns it, and why the rest is ignored.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const clusterRoles = { apiVersion: 'rbac.authorization.k8s.io/v1', plural: 'clusterroles' };
const clusterRole = (name: string) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name },
  rules: [],
});

/** Follows child → tracking object → track and checks each link is a full, legal controller reference. */
async function expectOwnedChain(
  child: Live | undefined,
  tracker: 'GitTrackObject' | 'ClusterGitTrackObject',
  trackUid: string,
) {
  expect(child).toBeDefined();
  const childRef = child!.metadata.ownerReferences?.find((o) => o.controller);
  expect(childRef).toMatchObject({
    apiVersion: 'lightkeeper.dev/v1alpha1',
    kind: tracker,
    controller: true,
    blockOwnerDeletion: true,
  });
  const trackerLive = await getLive(
    client,
    lightkeeperResources[tracker],
    childRef!.name,
    tracker === 'GitTrackObject' ? child!.metadata.namespace : undefined,
  );
  expect(trackerLive?.metadata.uid).toBe(childRef!.uid);
  expect(trackerLive!.metadata.labels?.[trackUidLabel]).toBe(trackUid);
  expect(trackerLive!.metadata.ownerReferences).toEqual([
    expect.objectContaining({ uid: trackUid, controller: true, blockOwnerDeletion: true }),
  ]);
  // The tracking object records where the child came from, never what it contains.
  expect(JSON.stringify(trackerLive)).not.toContain('"data"');
  return trackerLive!;
}

describe('ClusterGitTrack', () => {
  it('tracks cluster-scoped children with ClusterGitTrackObjects and namespaced ones with GitTrackObjects in their namespace', async () => {
    const [x, y, fallback] = await Promise.all([
      freshNamespace(client, 'own-x'),
      freshNamespace(client, 'own-y'),
      freshNamespace(client, 'own-default'),
    ]);
    const role = uniqueName('lk-role');
    const repo = createRepo(server, uniqueName('cgt-table'));
    const sha = commit(
      repo,
      {
        'cluster/role.yaml': yamlOf(clusterRole(role)),
        'x/cm.yaml': yamlOf(configMap('settings', { a: '1' }, x)),
        'y/cm.yaml': yamlOf(configMap('settings', { a: '2' }, y)),
        'unnamespaced/cm.yaml': yamlOf(configMap('loose')),
      },
      'all shapes',
    );
    const track = await createClusterGitTrack(client, {
      repository: repo.url,
      reference: 'main',
      defaultNamespace: fallback,
    });
    const summary = await e.run(track);
    expect(summary).toMatchObject({
      result: 'Succeeded',
      commit: sha,
      counts: { discovered: 4, applied: 4, ignored: 0, failed: 0 },
    });
    const { uid } = await trackStatus(client, track);

    const cgto = await expectOwnedChain(
      await getLive(client, clusterRoles, role),
      'ClusterGitTrackObject',
      uid,
    );
    expect(cgto.metadata.namespace).toBeUndefined();
    expect(cgto.spec).toMatchObject({
      target: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: role },
      source: { path: 'cluster/role.yaml', commit: sha },
    });
    for (const ns of [x, y]) {
      const gto = await expectOwnedChain(
        await getLive(client, configMaps, 'settings', ns),
        'GitTrackObject',
        uid,
      );
      expect(gto.metadata.namespace).toBe(ns);
    }
    const loose = await getLive(client, configMaps, 'loose', fallback);
    expect((await expectOwnedChain(loose, 'GitTrackObject', uid)).metadata.namespace).toBe(fallback);
  });

  it('ignores namespaced manifests without a namespace when it has no defaultNamespace', async () => {
    const repo = createRepo(server, uniqueName('cgt-nodefault'));
    commit(repo, { 'cm.yaml': yamlOf(configMap('loose')) }, 'loose');
    const track = await createClusterGitTrack(client, { repository: repo.url, reference: 'main' });
    const summary = await e.run(track);
    expect(summary.ignored).toEqual([
      { path: 'cm.yaml', object: 'ConfigMap/loose', reason: ignoreReasons.noNamespace },
    ]);
    expect(await trackStatus(client, track)).toMatchObject({
      objectsIgnored: 1,
      ignored: [{ path: 'cm.yaml', reason: ignoreReasons.noNamespace }],
    });
  });

  it('ignores every namespaced manifest in ExcludeNamespaced mode', async () => {
    const ns = await freshNamespace(client, 'excluded');
    const role = uniqueName('lk-role');
    const repo = createRepo(server, uniqueName('cgt-exclude'));
    commit(repo, { 'all.yaml': yamlOf(clusterRole(role), configMap('cm', {}, ns)) }, 'mixed');
    const track = await createClusterGitTrack(client, { repository: repo.url, reference: 'main' });
    const excluding = engine(client, {
      config: { gitTrackMode: 'Enabled', clusterGitTrackMode: 'ExcludeNamespaced' },
    });
    const summary = await excluding.run(track);
    excluding.dispose();
    expect(summary.counts).toMatchObject({ applied: 1, ignored: 1 });
    expect(summary.ignored[0]?.reason).toBe(ignoreReasons.excludedNamespaced);
    expect(await getLive(client, configMaps, 'cm', ns)).toBeUndefined();
    expect(await getLive(client, clusterRoles, role)).toBeDefined();
  });

  it('names tracking objects apart for the same kind and name in different API groups, with CRDs from the same commit', async () => {
    const ns = await freshNamespace(client, 'groups');
    const suffix = uniqueName('g');
    const crd = (group: string) => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `widgets.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    });
    const groups = [`a-${suffix}.example.com`, `b-${suffix}.example.com`];
    const widget = (group: string) => ({
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'same', namespace: ns },
      spec: { size: group },
    });
    const repo = createRepo(server, uniqueName('cgt-groups'));
    commit(
      repo,
      { 'crds.yaml': yamlOf(...groups.map(crd)), 'widgets.yaml': yamlOf(...groups.map(widget)) },
      'widgets',
    );
    const track = await createClusterGitTrack(client, { repository: repo.url, reference: 'main' });
    const summary = await e.run(track);
    expect(summary).toMatchObject({ result: 'Succeeded', counts: { applied: 4 } });
    const names = groups.map((group) =>
      trackingObjectName({ group, kind: 'Widget', namespace: ns, name: 'same' }),
    );
    expect(new Set(names).size).toBe(2);
    for (const [i, group] of groups.entries()) {
      const live = await getLive(client, { apiVersion: `${group}/v1`, plural: 'widgets' }, 'same', ns);
      expect(live?.spec).toEqual({ size: group });
      expect(live?.metadata.ownerReferences?.[0]?.name).toBe(names[i]);
    }
    // Remove the CRDs so other tests' discovery stays small.
    for (const group of groups) {
      await client.request(
        'DELETE',
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${group}`,
      );
    }
  });
});

describe('GitTrack', () => {
  it('tracks manifests of its own namespace and ignores cluster-scoped ones and other namespaces, with reasons', async () => {
    const [own, other] = await Promise.all([
      freshNamespace(client, 'gt-own'),
      freshNamespace(client, 'gt-other'),
    ]);
    const role = uniqueName('lk-role');
    const repo = createRepo(server, uniqueName('gt-table'));
    commit(
      repo,
      {
        'explicit.yaml': yamlOf(configMap('explicit', {}, own)),
        'implied.yaml': yamlOf(configMap('implied')),
        'other.yaml': yamlOf(configMap('elsewhere', {}, other)),
        'cluster.yaml': yamlOf(clusterRole(role)),
      },
      'all shapes',
    );
    const track = await createGitTrack(client, own, { repository: repo.url, reference: 'main' });
    const summary = await e.run(track);
    expect(summary).toMatchObject({ result: 'Succeeded', counts: { discovered: 4, applied: 2, ignored: 2 } });
    expect(summary.ignored).toEqual(
      expect.arrayContaining([
        {
          path: 'cluster.yaml',
          object: `ClusterRole.rbac.authorization.k8s.io/${role}`,
          reason: ignoreReasons.clusterScopedForGitTrack,
        },
        {
          path: 'other.yaml',
          object: `ConfigMap/${other}/elsewhere`,
          reason: `namespace ${other} is not managed by this GitTrack`,
        },
      ]),
    );
    const { uid } = await trackStatus(client, track);
    for (const name of ['explicit', 'implied']) {
      const gto = await expectOwnedChain(await getLive(client, configMaps, name, own), 'GitTrackObject', uid);
      expect(gto.metadata.namespace).toBe(own);
    }
    expect(await getLive(client, configMaps, 'elsewhere', other)).toBeUndefined();
    expect(await getLive(client, clusterRoles, role)).toBeUndefined();
  });
});

describe('two tracks, one object', () => {
  it("never lets a second track take over another track's tracking object or child", async () => {
    const ns = await freshNamespace(client, 'contested');
    const repo = createRepo(server, uniqueName('contested'));
    commit(repo, { 'cm.yaml': yamlOf(configMap('shared', { from: 'git' }, ns)) }, 'shared');
    const first = await createClusterGitTrack(client, { repository: repo.url, reference: 'main' });
    const second = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(first)).result).toBe('Succeeded');
    const before = await getLive(client, configMaps, 'shared', ns);
    const summary = await e.run(second);
    expect(summary.result).toBe('Failed');
    expect(summary.changes[0]?.message).toMatch(
      new RegExp(
        `ConfigMap/${ns}/shared is already tracked by ClusterGitTrack ${first.name}; not taking it over`,
      ),
    );
    const { uid } = await trackStatus(client, first);
    const after = await expectOwnedChain(
      await getLive(client, configMaps, 'shared', ns),
      'GitTrackObject',
      uid,
    );
    expect(after.metadata.uid).toBe(before?.metadata.ownerReferences?.[0]?.uid);
  });
});

describe('deployment modes', () => {
  it('refuses tracks the deployment does not serve', async () => {
    const ns = await freshNamespace(client, 'modes');
    const repo = createRepo(server, uniqueName('modes'));
    commit(repo, { 'cm.yaml': yamlOf(configMap('c')) }, 'c');
    const gitTrack = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const clusterTrack = await createClusterGitTrack(client, { repository: repo.url, reference: 'main' });
    const run = (config: DeploymentConfig, track: typeof gitTrack) => {
      const scoped = engine(client, { config });
      return scoped.run(track).finally(scoped.dispose);
    };
    await expect(
      run({ gitTrackMode: 'Disabled', clusterGitTrackMode: 'IncludeNamespaced' }, gitTrack),
    ).rejects.toThrow(/GITTRACK_MODE=Disabled/);
    await expect(
      run({ namespace: 'elsewhere', gitTrackMode: 'Enabled', clusterGitTrackMode: 'Disabled' }, gitTrack),
    ).rejects.toThrow(/only manages GitTracks in namespace elsewhere/);
    await expect(
      run({ namespace: ns, gitTrackMode: 'Enabled', clusterGitTrackMode: 'Disabled' }, clusterTrack),
    ).rejects.toThrow(/CLUSTERGITTRACK_MODE=Disabled/);
    expect(
      (await run({ namespace: ns, gitTrackMode: 'Enabled', clusterGitTrackMode: 'Disabled' }, gitTrack))
        .result,
    ).toBe('Succeeded');
  });
});
