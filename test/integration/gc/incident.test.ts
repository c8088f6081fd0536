import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { controllerReference, type OwnerReference } from '../../../lib/ownership/ownerReference';
import { eventually, freshNamespace, kubeClient, localControlPlane, uniqueName } from '../../support/cluster';
import {
  type Created,
  createObject,
  createTrack,
  createTrackingObject,
  liveUid,
} from '../../support/trackingObjects';

// shared/background/faros-issue-143.md, on a real garbage collector that we restart: the seed's
// shape loses its objects; every shape lightkeeper writes keeps them, UID for UID.

let client: KubeClient;
beforeAll(async () => {
  client = await kubeClient();
});
afterAll(() => client.close());

const plane = localControlPlane();

/** What the seed did: a reference written without asking whether the dependent can see the owner. */
const seedReference = (o: Created): OwnerReference => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  name: o.name,
  uid: o.uid,
  controller: true,
  blockOwnerDeletion: true,
});

/** Lightkeeper's reference: built by the one function that refuses illegal shapes. */
const ownedBy = (owner: Created, namespace?: string) => [
  controllerReference(owner, { namespace, subject: `dependent of ${owner.kind}/${owner.name}` }),
];

const configMap = (name: string, namespace: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  name,
  namespace,
});
const gone = async (objects: Created[]) =>
  (await Promise.all(objects.map((o) => liveUid(client, o)))).every((uid) => uid === undefined);
const uids = async (objects: Created[]) => Promise.all(objects.map((o) => liveUid(client, o)));

interface OwnerRefEvent {
  reason: string;
  involvedObject: { kind: string; name: string };
}
const invalidNamespaceEvents = async (o: Created) =>
  (await client.get<{ items: OwnerRefEvent[] }>('/api/v1/events')).items.filter(
    (e) =>
      e.reason === 'OwnerRefInvalidNamespace' &&
      e.involvedObject.kind === o.kind &&
      e.involvedObject.name === o.name,
  );

describe.skipIf(!plane)('the incident on a real, restarted garbage collector', () => {
  it('reproduces the seed: objects in another namespace than their GitTrack are deleted after a restart', async () => {
    const a = await freshNamespace(client, 'seed-a');
    const b = await freshNamespace(client, 'seed-b');
    // Built while the collector is down, so it rebuilds its graph from empty, as after the etcd leader loss.
    await plane!.stopControllerManager();
    let gitTrack: Created;
    let sameNamespace: Created;
    let crossNamespace: Created[];
    let clusterScoped: Created;
    try {
      gitTrack = await createTrack(client, 'GitTrack', 'seed', a);
      const target = { apiVersion: 'v1', kind: 'ConfigMap', name: 'x' };
      sameNamespace = await createTrackingObject(client, 'GitTrackObject', 'same', a, target, [
        seedReference(gitTrack),
      ]);
      crossNamespace = [
        await createTrackingObject(client, 'GitTrackObject', 'cross-1', b, target, [seedReference(gitTrack)]),
        await createTrackingObject(client, 'GitTrackObject', 'cross-2', b, target, [seedReference(gitTrack)]),
      ];
      clusterScoped = await createTrackingObject(
        client,
        'ClusterGitTrackObject',
        uniqueName('seed'),
        undefined,
        target,
        [seedReference(gitTrack)],
      );
    } finally {
      await plane!.startControllerManager();
    }

    await eventually('the collector deletes the GitTrackObjects in the other namespace', () =>
      gone(crossNamespace),
    );
    expect(await liveUid(client, sameNamespace)).toBe(sameNamespace.uid);
    // A cluster-scoped dependent of a namespaced owner is never resolved: the collector reports
    // it and leaves it, so it would leak once the GitTrack is gone.
    await eventually('the collector reports the ClusterGitTrackObject', async () => {
      return (await invalidNamespaceEvents(clusterScoped)).length > 0;
    });
    await client.request('DELETE', gitTrack.path);
    await eventually('the same-namespace GitTrackObject follows its GitTrack', () => gone([sameNamespace]));
    expect(await liveUid(client, clusterScoped)).toBe(clusterScoped.uid);
    await client.request('DELETE', clusterScoped.path);
  });

  it('keeps every legal shape through three restarts, then cascades when the tracks are deleted', async () => {
    const [x, y, seedNs] = await Promise.all([
      freshNamespace(client, 'legal-x'),
      freshNamespace(client, 'legal-y'),
      freshNamespace(client, 'legal-sentinel'),
    ]);
    const clusterTrack = await createTrack(client, 'ClusterGitTrack', uniqueName('cgt'));
    const gitTrack = await createTrack(client, 'GitTrack', 'team', x);

    const roleName = uniqueName('lightkeeper-test-role');
    const nsName = uniqueName('lightkeeper-test-child');
    const cgtoRole = await createTrackingObject(
      client,
      'ClusterGitTrackObject',
      uniqueName('clusterrole'),
      undefined,
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: roleName },
      ownedBy(clusterTrack),
    );
    const cgtoNamespace = await createTrackingObject(
      client,
      'ClusterGitTrackObject',
      uniqueName('namespace'),
      undefined,
      { apiVersion: 'v1', kind: 'Namespace', name: nsName },
      ownedBy(clusterTrack),
    );
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings' };
    const gtoX = await createTrackingObject(
      client,
      'GitTrackObject',
      'cm-x',
      x,
      cm,
      ownedBy(clusterTrack, x),
    );
    const gtoY = await createTrackingObject(
      client,
      'GitTrackObject',
      'cm-y',
      y,
      cm,
      ownedBy(clusterTrack, y),
    );
    const gtoTeam = await createTrackingObject(
      client,
      'GitTrackObject',
      'cm-team',
      x,
      { ...cm, name: 'team-settings' },
      ownedBy(gitTrack, x),
    );
    const role = await createObject(
      client,
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        plural: 'clusterroles',
        name: roleName,
      },
      { rules: [] },
      ownedBy(cgtoRole),
    );
    const childNamespace = await createObject(
      client,
      { apiVersion: 'v1', kind: 'Namespace', plural: 'namespaces', name: nsName },
      {},
      ownedBy(cgtoNamespace),
    );
    const cmX = await createObject(client, configMap('settings', x), { data: { a: '1' } }, ownedBy(gtoX, x));
    const cmY = await createObject(client, configMap('settings', y), { data: { a: '1' } }, ownedBy(gtoY, y));
    const cmTeam = await createObject(client, configMap('team-settings', x), {}, ownedBy(gtoTeam, x));

    const clusterTracked = [cgtoRole, cgtoNamespace, gtoX, gtoY, role, childNamespace, cmX, cmY];
    const teamTracked = [gtoTeam, cmTeam];
    const all = [clusterTrack, gitTrack, ...clusterTracked, ...teamTracked];
    const before = all.map((o) => o.uid);

    for (let restart = 1; restart <= 3; restart++) {
      // A sentinel in the seed's shape proves the rebuilt collector has processed cross-namespace
      // references before we look: once it is gone, anything illegal would be gone too.
      const sentinel = await createTrackingObject(
        client,
        'GitTrackObject',
        uniqueName('sentinel'),
        seedNs,
        cm,
        [seedReference(gitTrack)],
      );
      await plane!.restartGarbageCollector();
      await eventually(`restart ${restart}: the sentinel is collected`, () => gone([sentinel]));
      expect(await uids(all), `after restart ${restart}`).toEqual(before);
    }

    await client.request('DELETE', clusterTrack.path, { query: { propagationPolicy: 'Background' } });
    await eventually('the ClusterGitTrack takes its tracking objects and their children along', () =>
      gone(clusterTracked),
    );
    expect(await uids(teamTracked)).toEqual(teamTracked.map((o) => o.uid));

    await client.request('DELETE', gitTrack.path, { query: { propagationPolicy: 'Background' } });
    await eventually('the GitTrack takes its tracking object and child along', () => gone(teamTracked));
  });
});
