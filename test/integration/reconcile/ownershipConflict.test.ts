import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { pruneAnnotation } from '../../../lib/manifests/metadataKeys';
import { controllerReference } from '../../../lib/ownership/ownerReference';
import { trackingObjectName } from '../../../lib/ownership/trackingObjectName';
import { eventually, freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createClusterGitTrack,
  createGitTrack,
  getLive,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { createTrack, createTrackingObject } from '../../support/trackingObjects';

// One conflict does not disable a whole track's prune: an object someone else owns (its tracking
// object or the child itself) is reported per object, and what left git is still pruned.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const roleBindings = { apiVersion: 'rbac.authorization.k8s.io/v1', plural: 'rolebindings' };
const roleBinding = (name: string, namespace: string) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  metadata: { name, namespace },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
});

interface EventView {
  type: string;
  reason: string;
  message: string;
  involvedObject: { kind: string; name: string };
}
const eventsOf = async (namespace: string, kind: string, name: string) =>
  (await client.get<{ items: EventView[] }>(`/api/v1/namespaces/${namespace}/events`)).items.filter(
    (ev) => ev.involvedObject.kind === kind && ev.involvedObject.name === name,
  );

describe('an ownership conflict', () => {
  it("on a tracking object a tenant created first is reported, and the ClusterGitTrack's prune still revokes a RoleBinding", async () => {
    const ns = await freshNamespace(client, 'conflict');
    const repo = createRepo(server, uniqueName('conflict'));
    commit(
      repo,
      {
        'settings.yaml': yamlOf(configMap('settings', { from: 'platform' }, ns)),
        'readers.yaml': yamlOf(roleBinding('readers', ns)),
        'contested.yaml': yamlOf(configMap('contested', { from: 'platform' }, ns)),
      },
      'platform',
    );
    // Tracking-object names depend only on the child: the tenant's GitTrack gets there first.
    const tenant = await createTrack(client, 'GitTrack', 'tenant', ns);
    const squatted = await createTrackingObject(
      client,
      'GitTrackObject',
      trackingObjectName({ group: '', kind: 'ConfigMap', namespace: ns, name: 'contested' }),
      ns,
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'contested' },
      [controllerReference(tenant, { namespace: ns, subject: 'the tenant tracking object' })],
    );
    const track = await createClusterGitTrack(client, { repository: repo.url, reference: 'main' });

    const first = await e.run(track);
    expect(first).toMatchObject({ counts: { applied: 2, conflicts: 1, failed: 0 }, errors: [] });
    const conflict = first.changes.find((c) => c.action === 'conflict');
    expect(conflict?.subject).toBe(`ConfigMap/${ns}/contested`);
    expect(conflict?.message).toMatch(
      new RegExp(`contested\\.yaml:1: ConfigMap/${ns}/contested is already tracked by GitTrack tenant`),
    );
    expect(await getLive(client, configMaps, 'contested', ns)).toBeUndefined();
    const tenantTracker = await getLive(client, lightkeeperResources.GitTrackObject, squatted.name, ns);
    expect(tenantTracker?.metadata.ownerReferences).toEqual([expect.objectContaining({ uid: tenant.uid })]);

    const status = await trackStatus(client, track);
    expect(status).toMatchObject({ objectsConflicting: 1, objectsFailed: 0 });
    expect(status.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'Ready',
          status: 'False',
          reason: 'OwnershipConflict',
          message: expect.stringContaining(`ConfigMap/${ns}/contested is already tracked by GitTrack tenant`),
        }),
        expect.objectContaining({ type: 'Pruned', status: 'True' }),
      ]),
    );
    const warnings = await eventsOf('default', 'ClusterGitTrack', track.name);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'Warning',
          reason: 'OwnershipConflict',
          message: expect.stringContaining(`ConfigMap/${ns}/contested`),
        }),
      ]),
    );
    expect(warnings.some((ev) => ev.reason === 'ReconcileFailed')).toBe(false);

    // Access revoked in git: the conflict must not keep the RoleBinding alive.
    expect(await getLive(client, roleBindings, 'readers', ns)).toBeDefined();
    commit(repo, { 'readers.yaml': null }, 'revoke readers');
    const second = await e.run(track);
    expect(second).toMatchObject({ counts: { pruned: 1, conflicts: 1, inSync: 1 } });
    expect(second.changes.find((c) => c.action === 'deleted')?.subject).toBe(
      `RoleBinding.rbac.authorization.k8s.io/${ns}/readers`,
    );
    await eventually('the collector removes the RoleBinding', async () => {
      return (await getLive(client, roleBindings, 'readers', ns)) === undefined;
    });
    expect(await getLive(client, configMaps, 'settings', ns)).toBeDefined();
    expect(await getLive(client, lightkeeperResources.GitTrackObject, squatted.name, ns)).toMatchObject({
      metadata: { uid: squatted.uid },
    });
  });

  it('on a child another controller holds is reported, and prune still runs', async () => {
    const ns = await freshNamespace(client, 'held');
    const repo = createRepo(server, uniqueName('held'));
    commit(repo, { 'a.yaml': yamlOf(configMap('a')), 'b.yaml': yamlOf(configMap('b')) }, 'two');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    await e.run(track);
    const owner = await getLive(client, configMaps, 'a', ns);
    await client.request('POST', resourcePath({ ...configMaps, namespace: ns }), {
      body: {
        ...configMap('taken'),
        metadata: {
          name: 'taken',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'a', uid: owner?.metadata.uid, controller: true },
          ],
        },
      },
    });
    commit(repo, { 'b.yaml': null, 'taken.yaml': yamlOf(configMap('taken', { mine: 'yes' })) }, 'take over');
    const summary = await e.run(track);
    expect(summary).toMatchObject({ counts: { conflicts: 1, pruned: 1, failed: 0 }, errors: [] });
    expect(summary.changes.find((c) => c.action === 'conflict')?.message).toMatch(
      new RegExp(`ConfigMap/${ns}/taken: child is owned by another controller`),
    );
    expect((await getLive(client, configMaps, 'taken', ns))?.data).toEqual({ key: 'value' });
    await eventually('the collector removes b', async () => {
      return (await getLive(client, configMaps, 'b', ns)) === undefined;
    });
  });

  it('on a protected child another controller holds is refused by lightkeeper itself', async () => {
    // Applied without a controller reference, a protected child no longer meets the server's
    // "only one controller" refusal: lightkeeper must look before it applies.
    const ns = await freshNamespace(client, 'held-protected');
    const owner = await client.request<{ metadata: { uid: string } }>(
      'POST',
      resourcePath({ ...configMaps, namespace: ns }),
      { body: configMap('owner') },
    );
    for (const name of ['by-policy', 'by-annotation']) {
      await client.request('POST', resourcePath({ ...configMaps, namespace: ns }), {
        body: {
          ...configMap(name),
          metadata: {
            name,
            ownerReferences: [
              {
                apiVersion: 'v1',
                kind: 'ConfigMap',
                name: 'owner',
                uid: owner.metadata.uid,
                controller: true,
              },
            ],
          },
        },
      });
    }
    const repo = createRepo(server, uniqueName('held-protected'));
    commit(
      repo,
      {
        'policy/cm.yaml': yamlOf(configMap('by-policy', { mine: 'yes' })),
        'annotation/cm.yaml': yamlOf({
          ...configMap('by-annotation', { mine: 'yes' }),
          metadata: { name: 'by-annotation', annotations: { [pruneAnnotation]: 'disabled' } },
        }),
      },
      'protected',
    );
    const spec = { repository: repo.url, reference: 'main' };
    const orphaning = await createGitTrack(client, ns, {
      ...spec,
      subPath: 'policy',
      deletionPolicy: 'Orphan',
    });
    const deleting = await createGitTrack(client, ns, { ...spec, subPath: 'annotation' });
    for (const track of [orphaning, deleting]) {
      const summary = await e.run(track);
      expect(summary).toMatchObject({ counts: { conflicts: 1, applied: 0 } });
      expect(summary.changes[0]?.message).toMatch(/is controlled by ConfigMap owner; not taking it over/);
    }
    for (const name of ['by-policy', 'by-annotation']) {
      expect((await getLive(client, configMaps, name, ns))?.data).toEqual({ key: 'value' });
    }
  });
});
