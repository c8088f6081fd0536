import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { updateStrategyAnnotation } from '../../../lib/manifests/metadataKeys';
import { eventually, freshNamespace, localControlPlane, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  getLive,
  type Live,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { present } from '../../support/present';
import { createRole, grant } from '../../support/tenancy';

// Issue 7, items 2 and 6: nothing is deleted with more rights than the tenant's own, and nothing
// that the track does not control is deleted at all.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const secrets = { apiVersion: 'v1', plural: 'secrets' };
const create = (namespace: string, r: { apiVersion: string; plural: string }, body: object) =>
  client.request<Live>('POST', resourcePath({ ...r, namespace }), { body });
const trackers = async (ns: string) =>
  (
    await client.get<{ items: Array<Live & { spec: { target: { name: string } } }> }>(
      resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }),
    )
  ).items;
const trackerOf = async (ns: string, name: string) =>
  (await trackers(ns)).find((t) => t.spec.target.name === name);

/** Proves a (re)started collector has processed the graph: a dependent of a missing owner is collected. */
async function collectorSynced(ns: string) {
  const canary = uniqueName('canary');
  await create(ns, configMaps, {
    ...configMap(canary),
    metadata: {
      name: canary,
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'absent', uid: randomUUID() }],
    },
  });
  await eventually(
    'the collector deletes the canary',
    async () => !(await getLive(client, configMaps, canary, ns)),
  );
}

describe('prune as the tenant', () => {
  it('fails, keeping object and tracking object, when the tenant may patch but no longer delete', async () => {
    const ns = await freshNamespace(client, 'no-delete');
    const rules = (verbs: string[]) => [{ apiGroups: [''], resources: ['configmaps'], verbs }];
    await createRole(client, ns, 'patch-not-delete', rules(['get', 'list', 'patch', 'delete']));
    await grant(client, ns, { role: 'patch-not-delete' });
    // Objects an administrator made; the tenant may adopt them only while it may delete them
    // (identity/adoptionAsTenant.test.ts), so it loses that right afterwards.
    const victim = await create(ns, configMaps, configMap('victim', { owner: 'admin' }));
    await create(ns, configMaps, configMap('stays'));
    const repo = createRepo(server, uniqueName('no-delete'));
    commit(
      repo,
      { 'victim.yaml': yamlOf(configMap('victim')), 'stays.yaml': yamlOf(configMap('stays')) },
      'adopt',
    );
    const track = await createGitTrack(
      client,
      ns,
      { repository: repo.url, reference: 'main' },
      { access: false },
    );
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', counts: { applied: 2 } });
    const tracker = present(await trackerOf(ns, 'victim'), 'the tracking object of victim');
    expect((await getLive(client, configMaps, 'victim', ns))?.metadata.ownerReferences?.[0]?.uid).toBe(
      tracker.metadata.uid,
    );

    await client.request(
      'PUT',
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles/patch-not-delete`,
      {
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'Role',
          metadata: { name: 'patch-not-delete' },
          rules: rules(['get', 'list', 'patch']),
        },
      },
    );
    commit(repo, { 'victim.yaml': null }, 'drop the victim');
    const summary = await e.run(track);
    expect(summary).toMatchObject({ result: 'Failed', counts: { pruned: 0, failed: 1 } });
    expect(summary.changes.find((c) => c.action === 'failed')?.message).toMatch(
      new RegExp(`pruning ConfigMap/${ns}/victim.*Forbidden.*cannot delete`, 's'),
    );
    const pruned = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Pruned');
    expect(pruned).toMatchObject({ status: 'False', reason: 'PruneFailed' });
    // The refusal in one line naming the grant, not the raw Forbidden (lib/identity/forbiddenFix.ts).
    expect(pruned?.message).toMatch(
      new RegExp(`which may not delete configmaps in ${ns}: grant it, e\\.g\\. kubectl create rolebinding`),
    );

    const survives = async () => {
      expect((await getLive(client, configMaps, 'victim', ns))?.metadata.uid).toBe(victim.metadata.uid);
      expect((await trackerOf(ns, 'victim'))?.metadata.uid).toBe(tracker.metadata.uid);
    };
    await survives();
    const plane = localControlPlane();
    if (plane) {
      await plane.restartGarbageCollector();
      await collectorSynced(ns);
      await survives();
    }
  });

  it('deletes the child as the tenant, and lets the collector delete nothing on its behalf', async () => {
    const ns = await freshNamespace(client, 'planted');
    // Full rights on ConfigMaps; Secrets it may only read and patch.
    await createRole(client, ns, 'configmaps-and-patch-secrets', [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'create', 'patch', 'delete'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'patch'] },
    ]);
    await grant(client, ns, { role: 'configmaps-and-patch-secrets' });
    const precious = await create(ns, secrets, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'precious' },
      stringData: { k: 'v' },
    });
    const repo = createRepo(server, uniqueName('planted'));
    commit(repo, { 'a.yaml': yamlOf(configMap('a')), 'b.yaml': yamlOf(configMap('b')) }, 'two');
    const track = await createGitTrack(
      client,
      ns,
      { repository: repo.url, reference: 'main' },
      { access: false },
    );
    expect((await e.run(track)).result).toBe('Succeeded');
    const tracker = present(await trackerOf(ns, 'a'), 'the tracking object of a');
    // The tenant points the Secret it cannot delete at a tracking object it is about to prune.
    const tenant = client.impersonating(`system:serviceaccount:${ns}:default`);
    await tenant.request('PATCH', resourcePath({ ...secrets, namespace: ns, name: 'precious' }), {
      contentType: 'application/merge-patch+json',
      body: {
        metadata: {
          ownerReferences: [
            {
              apiVersion: 'lightkeeper.dev/v1alpha1',
              kind: 'GitTrackObject',
              name: tracker.metadata.name,
              uid: tracker.metadata.uid,
            },
          ],
        },
      },
    });

    commit(repo, { 'a.yaml': null }, 'drop a');
    const summary = await e.run(track);
    expect(summary).toMatchObject({ result: 'Succeeded', counts: { pruned: 1 } });
    // Deleted by the prune itself, not later by the collector.
    expect(await getLive(client, configMaps, 'a', ns)).toBeUndefined();
    await eventually('the tracking object is gone', async () => !(await trackerOf(ns, 'a')));
    await collectorSynced(ns);
    const live = await getLive(client, secrets, 'precious', ns);
    expect(live?.metadata.uid).toBe(precious.metadata.uid);
    expect(live?.metadata.ownerReferences ?? []).toEqual([]);
  });

  it('leaves a child another controller took over; only its tracking object goes', async () => {
    const ns = await freshNamespace(client, 'taken-over');
    const repo = createRepo(server, uniqueName('taken-over'));
    commit(repo, { 'a.yaml': yamlOf(configMap('a')), 'b.yaml': yamlOf(configMap('b')) }, 'two');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    await e.run(track);
    const boss = await create(ns, configMaps, configMap('boss'));
    const child = present(await getLive(client, configMaps, 'a', ns), 'child a');
    await client.request('PATCH', resourcePath({ ...configMaps, namespace: ns, name: 'a' }), {
      contentType: 'application/merge-patch+json',
      body: {
        metadata: {
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'boss', uid: boss.metadata.uid, controller: true },
          ],
        },
      },
    });
    commit(repo, { 'a.yaml': null }, 'drop a');
    const summary = await e.run(track);
    expect(summary.changes.find((c) => c.subject === `ConfigMap/${ns}/a`)).toMatchObject({
      action: 'orphaned',
      message: 'not deleted: it is controlled by ConfigMap boss',
    });
    await eventually('the tracking object is gone', async () => !(await trackerOf(ns, 'a')));
    expect((await getLive(client, configMaps, 'a', ns))?.metadata.uid).toBe(child.metadata.uid);
  });
});

describe('Recreate', () => {
  it('never deletes an object another controller controls', async () => {
    const ns = await freshNamespace(client, 'recreate-guard');
    const boss = await create(ns, configMaps, configMap('boss'));
    const frozen = await create(ns, configMaps, {
      ...configMap('frozen', { v: '1' }),
      metadata: {
        name: 'frozen',
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'boss', uid: boss.metadata.uid, controller: true },
        ],
      },
      immutable: true,
    });
    const repo = createRepo(server, uniqueName('recreate-guard'));
    const manifest = {
      ...configMap('frozen', { v: '2' }),
      metadata: { name: 'frozen', annotations: { [updateStrategyAnnotation]: 'Recreate' } },
      immutable: true,
    };
    commit(repo, { 'frozen.yaml': yamlOf(manifest) }, 'recreate it');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const summary = await e.run(track);
    expect(summary.result).toBe('Failed');
    // Another controller's object is an ownership conflict: reported, never deleted.
    expect(summary.changes[0]).toMatchObject({
      action: 'conflict',
      message: expect.stringMatching(
        new RegExp(`ConfigMap/${ns}/frozen: not recreated .*controlled by ConfigMap boss`),
      ),
    });
    const live = await getLive(client, configMaps, 'frozen', ns);
    expect(live?.metadata.uid).toBe(frozen.metadata.uid);
    expect(live?.data).toEqual({ v: '1' });
  });
});
