import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { pruneAnnotation, trackUidLabel } from '../../../lib/manifests/metadataKeys';
import type { TrackRef } from '../../../lib/track/trackRef';
import { eventually, freshNamespace, localControlPlane, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createClusterGitTrack,
  createGitTrack,
  getLive,
  type Live,
  patchTrackSpec,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { present } from '../../support/present';

// Protection survives the deletion of the track: a protected child (annotated prune: disabled, or
// of a track whose deletion policy is Orphan) has no owner reference, so the real garbage
// collector, which deletes only dependents, cannot reach it when the track or its tracking object
// goes. Every assertion of survival waits first until the collector has removed what it should.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const plane = localControlPlane();
const clusterRoles = { apiVersion: 'rbac.authorization.k8s.io/v1', plural: 'clusterroles' };
const gitTrackObjects = lightkeeperResources.GitTrackObject;

const annotated = (name: string) => ({
  ...configMap(name),
  metadata: { name, annotations: { [pruneAnnotation]: 'disabled' } },
});

/** Names of the children the tracking objects in `ns` point at. */
const trackedNames = async (ns: string) =>
  (
    await client.get<{ items: Array<{ spec: { target: { name: string } } }> }>(
      resourcePath({ ...gitTrackObjects, namespace: ns }),
    )
  ).items
    .map((t) => t.spec.target.name)
    .sort();

const liveConfigMaps = (ns: string, names: string[]) =>
  Promise.all(names.map((n) => getLive(client, configMaps, n, ns)));
/** The UIDs of objects that must all exist: equal lists of missing objects would prove nothing. */
const uidsOf = (objects: Array<Live | undefined>) =>
  objects.map((o, i) => present(o, `child #${i}`).metadata.uid);

const deleteTrack = (track: TrackRef) =>
  client.request(
    'DELETE',
    resourcePath({ ...lightkeeperResources[track.kind], namespace: track.namespace, name: track.name }),
    { query: { propagationPolicy: 'Background' } },
  );

/** A GitTrack over `files`, reconciled once (everything created), with its children read back. */
async function trackedGitTrack(files: Record<string, object>, spec: Record<string, unknown> = {}) {
  const ns = await freshNamespace(client, 'deletion');
  const repo = createRepo(server, uniqueName('deletion'));
  commit(repo, Object.fromEntries(Object.entries(files).map(([f, o]) => [f, yamlOf(o)])), 'objects');
  const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main', ...spec });
  const first = await e.run(track);
  expect(first).toMatchObject({ result: 'Succeeded', counts: { applied: Object.keys(files).length } });
  return { ns, repo, track };
}

describe('a child annotated prune: disabled', () => {
  it('is tracked without an owner reference, and survives the deletion of its track', async () => {
    const { ns, track } = await trackedGitTrack({
      'keep.yaml': annotated('keep'),
      'other.yaml': configMap('other'),
    });
    const [liveKeep, other] = await liveConfigMaps(ns, ['keep', 'other']);
    const keep = present(liveKeep, 'ConfigMap keep');
    const { uid } = await trackStatus(client, track);
    expect(keep.metadata.ownerReferences ?? []).toEqual([]);
    expect(keep.metadata.labels?.[trackUidLabel]).toBe(uid);
    expect(other?.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'GitTrackObject', controller: true }),
    ]);
    // Still tracked while the track exists: its tracking object, the counters, a no-op reconcile.
    expect(await trackedNames(ns)).toEqual(['keep', 'other']);
    expect(await e.run(track)).toMatchObject({
      result: 'Succeeded',
      counts: { inSync: 2, applied: 0 },
      writes: { objects: 0 },
    });
    expect(await trackStatus(client, track)).toMatchObject({ objectsInSync: 2 });

    await deleteTrack(track);
    await eventually('the collector removes the tracking objects and the unprotected child', async () => {
      const [, stillOther] = await liveConfigMaps(ns, ['keep', 'other']);
      return (await trackedNames(ns)).length === 0 && stillOther === undefined;
    });
    const [after] = await liveConfigMaps(ns, ['keep']);
    expect(after?.metadata.uid).toBe(keep.metadata.uid);
  });

  it('survives the deletion of its tracking object, and is tracked again by the next reconcile', async () => {
    const { ns, track } = await trackedGitTrack({
      'keep.yaml': annotated('keep'),
      'other.yaml': configMap('other'),
    });
    const keep = present((await liveConfigMaps(ns, ['keep']))[0], 'ConfigMap keep');
    await client.request('DELETE', resourcePath({ ...gitTrackObjects, namespace: ns }), {
      query: { propagationPolicy: 'Background' },
    });
    await eventually('the collector removes the unprotected child', async () => {
      return (await liveConfigMaps(ns, ['other']))[0] === undefined;
    });
    expect((await liveConfigMaps(ns, ['keep']))[0]?.metadata.uid).toBe(keep.metadata.uid);

    const again = await e.run(track);
    expect(again).toMatchObject({ result: 'Succeeded', counts: { inSync: 2 } });
    expect(await trackedNames(ns)).toEqual(['keep', 'other']);
    expect((await liveConfigMaps(ns, ['keep']))[0]?.metadata.uid).toBe(keep.metadata.uid);
  });
});

describe('spec.deletionPolicy', () => {
  it('Orphan: every child survives the deletion of its ClusterGitTrack, across a controller-manager restart', async () => {
    const ns = await freshNamespace(client, 'orphan-policy');
    const role = uniqueName('lightkeeper-test-orphan');
    const repo = createRepo(server, uniqueName('orphan-policy'));
    commit(
      repo,
      {
        'cm.yaml': yamlOf(configMap('settings', { a: '1' }, ns)),
        'role.yaml': yamlOf({
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: { name: role },
          rules: [],
        }),
      },
      'two',
    );
    const track = await createClusterGitTrack(client, {
      repository: repo.url,
      reference: 'main',
      deletionPolicy: 'Orphan',
    });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', counts: { applied: 2 } });
    const cm = present(await getLive(client, configMaps, 'settings', ns), 'ConfigMap settings');
    const clusterRole = present(await getLive(client, clusterRoles, role), `ClusterRole ${role}`);
    for (const child of [cm, clusterRole]) expect(child.metadata.ownerReferences ?? []).toEqual([]);
    const clusterTrackers = async () =>
      (
        await client.get<{ items: Array<{ spec: { target: { name: string } } }> }>(
          resourcePath(lightkeeperResources.ClusterGitTrackObject),
        )
      ).items.filter((t) => t.spec.target.name === role);
    expect(await clusterTrackers()).toHaveLength(1);
    expect(await trackedNames(ns)).toEqual(['settings']);

    // The collector rebuilds its graph from empty (what lost the seed's objects); still nothing to take.
    if (plane) await plane.restartGarbageCollector();
    await deleteTrack(track);
    await eventually('the collector removes both tracking objects', async () => {
      return (await clusterTrackers()).length === 0 && (await trackedNames(ns)).length === 0;
    });
    expect((await getLive(client, configMaps, 'settings', ns))?.metadata.uid).toBe(cm.metadata.uid);
    expect((await getLive(client, clusterRoles, role))?.metadata.uid).toBe(clusterRole.metadata.uid);
    await client.request('DELETE', resourcePath({ ...clusterRoles, name: role }));
  });

  it('unset with spec.prune false mirrors prune: the children survive the deletion of the track', async () => {
    const { ns, track } = await trackedGitTrack(
      { 'a.yaml': configMap('a'), 'b.yaml': configMap('b') },
      { prune: false },
    );
    const before = uidsOf(await liveConfigMaps(ns, ['a', 'b']));
    await deleteTrack(track);
    await eventually('the collector removes the tracking objects', async () => {
      return (await trackedNames(ns)).length === 0;
    });
    expect(uidsOf(await liveConfigMaps(ns, ['a', 'b']))).toEqual(before);
  });

  it('Delete cascades to the children, even when the track does not prune', async () => {
    const { ns, track } = await trackedGitTrack(
      { 'a.yaml': configMap('a'), 'b.yaml': configMap('b') },
      { prune: false, deletionPolicy: 'Delete' },
    );
    await deleteTrack(track);
    await eventually('the collector removes the tracking objects and the children', async () => {
      const live = await liveConfigMaps(ns, ['a', 'b']);
      return (await trackedNames(ns)).length === 0 && live.every((o) => o === undefined);
    });
  });

  it('switching Delete to Orphan re-applies each child once, then a no-op writes nothing', async () => {
    const { ns, track } = await trackedGitTrack({ 'a.yaml': configMap('a'), 'b.yaml': configMap('b') });
    const before = await liveConfigMaps(ns, ['a', 'b']);
    for (const child of before) expect(child?.metadata.ownerReferences).toHaveLength(1);

    await patchTrackSpec(client, track, { deletionPolicy: 'Orphan' });
    const switched = await e.run(track);
    expect(switched).toMatchObject({ result: 'Succeeded', counts: { applied: 2, drifted: 0 } });
    // Server-side apply dropped the reference our field manager had applied.
    const after = await liveConfigMaps(ns, ['a', 'b']);
    expect(uidsOf(after)).toEqual(uidsOf(before));
    for (const child of after) expect(child?.metadata.ownerReferences ?? []).toEqual([]);
    expect(await e.run(track)).toMatchObject({
      result: 'Succeeded',
      counts: { applied: 0, inSync: 2 },
      writes: { objects: 0 },
    });

    await deleteTrack(track);
    await eventually('the collector removes the tracking objects', async () => {
      return (await trackedNames(ns)).length === 0;
    });
    expect(uidsOf(await liveConfigMaps(ns, ['a', 'b']))).toEqual(uidsOf(before));
  });

  it('switching Orphan back to Delete puts the controller reference back', async () => {
    const { ns, track } = await trackedGitTrack({ 'a.yaml': configMap('a') }, { deletionPolicy: 'Orphan' });
    expect((await liveConfigMaps(ns, ['a']))[0]?.metadata.ownerReferences ?? []).toEqual([]);
    await patchTrackSpec(client, track, { deletionPolicy: 'Delete' });
    expect(await e.run(track)).toMatchObject({ counts: { applied: 1, drifted: 0 } });
    expect((await liveConfigMaps(ns, ['a']))[0]?.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'GitTrackObject', controller: true, blockOwnerDeletion: true }),
    ]);
    expect(await e.run(track)).toMatchObject({ counts: { applied: 0 }, writes: { objects: 0 } });
    await deleteTrack(track);
    await eventually('the child follows its track', async () => {
      return (await liveConfigMaps(ns, ['a']))[0] === undefined;
    });
  });
});
