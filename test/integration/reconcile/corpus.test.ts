// Real-world manifests from ../shared/corpus, committed into a real git repository and reconciled
// on the real control plane. kube-prometheus and ingress-nginx hard-code their namespaces and
// cluster-scoped names, so their tracks have fixed names, are removed first if a previous run left
// them behind, and are deleted (and waited for) at the end.

import { beforeAll, describe, expect, it } from 'vitest';
import { Discovery } from '../../../lib/kube/discovery';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { Manifest } from '../../../lib/manifests';
import { trackUidLabel } from '../../../lib/manifests/metadataKeys';
import { ignoreReasons } from '../../../lib/ownership/ownershipTable';
import type { TrackRef } from '../../../lib/track/trackRef';
import { eventually, freshNamespace, localControlPlane, uniqueName } from '../../support/cluster';
import { corpusFiles, corpusManifests } from '../../support/corpus';
import { createClusterGitTrack, createGitTrack, getLive, type Live, trackStatus } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

type LiveTracked = Live & { metadata: { resourceVersion?: string } };

/** Live objects by identity, resolving plurals through one discovery. */
async function liveObjects(manifests: readonly Manifest[], namespace?: string) {
  const discovery = await new Discovery(client).refresh();
  return Promise.all(
    manifests.map(async (m) => {
      const resource = discovery.resourceFor(m.ref.apiVersion, m.ref.kind);
      if (!resource) return undefined;
      const ns = resource.namespaced ? (m.ref.namespace ?? namespace) : undefined;
      return client.find<LiveTracked>(
        resourcePath({ ...resource, apiVersion: m.ref.apiVersion, namespace: ns, name: m.ref.name }),
      );
    }),
  );
}

/** Every tracking object of a track, across namespaces. */
async function trackersOf(trackUid: string): Promise<LiveTracked[]> {
  const query = { labelSelector: `${trackUidLabel}=${trackUid}` };
  const lists = await Promise.all(
    [lightkeeperResources.GitTrackObject, lightkeeperResources.ClusterGitTrackObject].map((r) =>
      client.get<{ items: LiveTracked[] }>(resourcePath(r), { query }),
    ),
  );
  return lists.flatMap((l) => l.items);
}

const clusterTrackPath = (name: string) => resourcePath({ ...lightkeeperResources.ClusterGitTrack, name });

/**
 * Deletes a ClusterGitTrack (if it exists) and waits until the garbage collector and the namespace
 * controller have removed everything the corpus defines, so the next test or run starts clean.
 */
async function removeClusterTrack(name: string, manifests: readonly Manifest[]) {
  await client
    .request('DELETE', clusterTrackPath(name), { query: { propagationPolicy: 'Background' } })
    .catch((e: { status?: number }) => {
      if (e.status !== 404) throw e;
    });
  await eventually(
    `the objects of ClusterGitTrack ${name} are gone`,
    async () => (await liveObjects(manifests)).every((o) => o === undefined),
    240_000,
  );
}

const byKind = (manifests: readonly Manifest[], kind: string) => manifests.filter((m) => m.ref.kind === kind);

describe('kube-prometheus by a ClusterGitTrack', () => {
  const trackName = 'corpus-kube-prometheus';
  const files = corpusFiles('kube-prometheus');
  const manifests = corpusManifests(files);
  const track: TrackRef = { kind: 'ClusterGitTrack', name: trackName };
  let trackUid: string;

  beforeAll(async () => {
    await removeClusterTrack(trackName, manifests);
    const repo = createRepo(server, uniqueName('kube-prometheus'));
    commit(repo, files, 'kube-prometheus');
    await createClusterGitTrack(
      client,
      { repository: repo.url, reference: 'main', subPath: 'manifests' },
      trackName,
    );
  });

  it('applies every object, CRDs and their custom resources in one reconcile; the next is a no-op', async () => {
    expect(manifests.length).toBe(131);
    const first = await e.run(track);
    expect(first.errors).toEqual([]);
    expect(first.result).toBe('Succeeded');
    expect(first.counts).toMatchObject({
      discovered: manifests.length,
      applied: manifests.length,
      failed: 0,
    });
    expect(first.changes.filter((c) => c.action === 'created')).toHaveLength(manifests.length);

    const live = await liveObjects(manifests);
    expect(manifests.filter((_, i) => !live[i]).map((m) => m.ref.name)).toEqual([]);

    for (const crd of byKind(manifests, 'CustomResourceDefinition')) {
      const o = (await getLive(
        client,
        { apiVersion: 'apiextensions.k8s.io/v1', plural: 'customresourcedefinitions' },
        crd.ref.name,
      )) as Live & { status: { conditions: Array<{ type: string; status: string }> } };
      expect(o.status.conditions, crd.ref.name).toContainEqual(
        expect.objectContaining({ type: 'Established', status: 'True' }),
      );
    }

    const dashboards = manifests.filter(
      (m) => m.source.path === 'manifests/grafana-dashboardDefinitions.yaml',
    );
    expect(dashboards.length).toBeGreaterThan(20);
    expect((await liveObjects(dashboards)).every((o) => o?.kind === 'ConfigMap')).toBe(true);

    const status = await trackStatus(client, track);
    trackUid = status.uid;
    expect(status).toMatchObject({
      objectsDiscovered: manifests.length,
      objectsInSync: manifests.length,
      objectsFailed: 0,
      lastAppliedCommit: first.commit,
    });

    const second = await e.run(track);
    expect(second.result).toBe('Succeeded');
    expect(second.writes.objects).toBe(0);
    expect(second.changes.every((c) => c.action === 'unchanged')).toBe(true);
  });

  it('owns custom resources through GitTrackObjects in monitoring, owned by the ClusterGitTrack', async () => {
    const custom = [
      ...byKind(manifests, 'Prometheus'),
      ...byKind(manifests, 'ServiceMonitor').slice(0, 3),
      ...byKind(manifests, 'PrometheusRule').slice(0, 2),
    ];
    expect(custom).toHaveLength(6);
    for (const [i, o] of (await liveObjects(custom)).entries()) {
      const subject = custom[i]!.ref.name;
      expect(o?.metadata.namespace, subject).toBe('monitoring');
      const owner = o?.metadata.ownerReferences?.find((r) => r.controller);
      expect(owner, subject).toMatchObject({ kind: 'GitTrackObject', blockOwnerDeletion: true });
      const tracker = await getLive(client, lightkeeperResources.GitTrackObject, owner!.name, 'monitoring');
      expect(tracker?.metadata.uid, subject).toBe(owner!.uid);
      expect(tracker?.metadata.ownerReferences, subject).toEqual([
        expect.objectContaining({
          kind: 'ClusterGitTrack',
          name: trackName,
          uid: trackUid,
          controller: true,
        }),
      ]);
    }
  });

  it.skipIf(!localControlPlane())('loses nothing through three garbage-collector restarts', async () => {
    const plane = localControlPlane()!;
    const uids = async () => [
      ...(await liveObjects(manifests)).map((o) => o?.metadata.uid),
      ...(await trackersOf(trackUid)).map((t) => `${t.metadata.name}=${t.metadata.uid}`).sort(),
    ];
    const before = await uids();
    expect(before.length).toBe(2 * manifests.length);
    expect(before.every(Boolean)).toBe(true);

    const sentinelNs = await freshNamespace(client, 'corpus-sentinel');
    const [monitoringTracker] = (await trackersOf(trackUid)).filter(
      (t) => t.metadata.namespace === 'monitoring',
    );
    for (let restart = 1; restart <= 3; restart++) {
      // The incident's shape (a namespaced owner in another namespace): once the rebuilt collector
      // has deleted this sentinel, it has looked at the graph, and anything it would wrongly
      // collect would be going too.
      const sentinel = uniqueName('sentinel');
      const sentinelPath = resourcePath({
        apiVersion: 'v1',
        plural: 'configmaps',
        namespace: sentinelNs,
        name: sentinel,
      });
      await client.request(
        'POST',
        resourcePath({ apiVersion: 'v1', plural: 'configmaps', namespace: sentinelNs }),
        {
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: {
              name: sentinel,
              ownerReferences: [
                {
                  apiVersion: 'lightkeeper.dev/v1alpha1',
                  kind: 'GitTrackObject',
                  name: monitoringTracker!.metadata.name,
                  uid: monitoringTracker!.metadata.uid,
                },
              ],
            },
          },
        },
      );
      await plane.restartGarbageCollector();
      await eventually(
        `restart ${restart}: the sentinel is collected`,
        async () => !(await client.find(sentinelPath)),
      );
      expect(await uids(), `after restart ${restart}`).toEqual(before);
    }
    await client.request(
      'DELETE',
      resourcePath({ apiVersion: 'v1', plural: 'namespaces', name: sentinelNs }),
    );
  });

  it('deleting the ClusterGitTrack removes everything it created', async () => {
    // Run alone, the first test has not applied the corpus: apply it here, so there is something to remove.
    if (!trackUid) {
      expect((await e.run(track)).result).toBe('Succeeded');
      trackUid = (await trackStatus(client, track)).uid;
    }
    expect(await trackersOf(trackUid)).toHaveLength(manifests.length);
    const live = await liveObjects(manifests);
    expect(manifests.filter((_, i) => !live[i]).map((m) => m.ref.name)).toEqual([]);

    await removeClusterTrack(trackName, manifests);
    expect(await trackersOf(trackUid)).toEqual([]);
  });
});

describe('ingress-nginx by a ClusterGitTrack', () => {
  const trackName = 'corpus-ingress-nginx';
  const files = corpusFiles('ingress-nginx');
  const manifests = corpusManifests(files);
  const track: TrackRef = { kind: 'ClusterGitTrack', name: trackName };

  it('applies every object, the webhook configuration last', async () => {
    await removeClusterTrack(trackName, manifests);
    const repo = createRepo(server, uniqueName('ingress-nginx'));
    commit(repo, files, 'ingress-nginx');
    await createClusterGitTrack(client, { repository: repo.url, reference: 'main' }, trackName);
    try {
      const summary = await e.run(track);
      expect(summary.errors).toEqual([]);
      expect(summary.result).toBe('Succeeded');
      expect(manifests).toHaveLength(19);
      expect(summary.counts).toMatchObject({ discovered: 19, applied: 19, failed: 0 });

      const live = await liveObjects(manifests);
      expect(manifests.filter((_, i) => !live[i]).map((m) => m.ref.name)).toEqual([]);

      const webhook = 'ValidatingWebhookConfiguration.admissionregistration.k8s.io/ingress-nginx-admission';
      expect(summary.changes.at(-1)).toEqual({ subject: webhook, action: 'created' });
      // resourceVersions are etcd revisions on this control plane: the webhook's creation is the
      // newest write among the children. The deployment controller writes a Deployment's status
      // after lightkeeper is done, so Deployments are left out of the comparison.
      const revision = (o: LiveTracked | undefined) => Number(o?.metadata.resourceVersion);
      const webhookIndex = manifests.findIndex((m) => m.ref.kind === 'ValidatingWebhookConfiguration');
      const others = live
        .filter((_, i) => i !== webhookIndex && manifests[i]?.ref.kind !== 'Deployment')
        .map(revision);
      expect(revision(live[webhookIndex])).toBeGreaterThan(Math.max(...others));
    } finally {
      // The webhook would refuse every Ingress other tests create: remove it before leaving.
      await removeClusterTrack(trackName, manifests);
    }
  });
});

describe('microservices-demo (no namespaces)', () => {
  const files = corpusFiles('microservices-demo');
  const manifests = corpusManifests(files);
  let repoUrl: string;

  beforeAll(() => {
    const repo = createRepo(server, uniqueName('microservices-demo'));
    commit(repo, files, 'microservices-demo');
    repoUrl = repo.url;
  });

  it('lands in the defaultNamespace of a ClusterGitTrack', async () => {
    expect(manifests).toHaveLength(35);
    const ns = await freshNamespace(client, 'corpus-demo');
    const track = await createClusterGitTrack(client, {
      repository: repoUrl,
      reference: 'main',
      defaultNamespace: ns,
    });
    try {
      const summary = await e.run(track);
      expect(summary.errors).toEqual([]);
      expect(summary.result).toBe('Succeeded');
      expect(summary.counts).toMatchObject({ discovered: 35, applied: 35, ignored: 0 });
      const live = await liveObjects(manifests, ns);
      expect(live.every((o) => o?.metadata.namespace === ns)).toBe(true);
    } finally {
      await client.request('DELETE', clusterTrackPath(track.name), {
        query: { propagationPolicy: 'Background' },
      });
    }
  });

  it("lands in a GitTrack's own namespace", async () => {
    const ns = await freshNamespace(client, 'corpus-demo-gt');
    const track = await createGitTrack(client, ns, { repository: repoUrl, reference: 'main' });
    const summary = await e.run(track);
    expect(summary.errors).toEqual([]);
    expect(summary.result).toBe('Succeeded');
    expect(summary.counts).toMatchObject({ discovered: 35, applied: 35, ignored: 0 });
    const live = await liveObjects(manifests, ns);
    expect(live.every((o) => o?.metadata.namespace === ns)).toBe(true);
    const owner = live[0]?.metadata.ownerReferences?.find((r) => r.controller);
    const tracker = await getLive(client, lightkeeperResources.GitTrackObject, owner!.name, ns);
    expect(tracker?.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'GitTrack', name: track.name }),
    ]);
  });

  it('is ignored, with the reason, by a ClusterGitTrack without defaultNamespace', async () => {
    const track = await createClusterGitTrack(client, { repository: repoUrl, reference: 'main' });
    try {
      const summary = await e.run(track);
      expect(summary.errors).toEqual([]);
      expect(summary.result).toBe('Succeeded');
      expect(summary.counts).toMatchObject({ discovered: 35, applied: 0, ignored: 35 });
      expect(summary.writes.objects).toBe(0);
      const status = (await trackStatus(client, track)) as {
        objectsIgnored?: number;
        ignored?: Array<{ path: string; object: string; reason: string }>;
      };
      expect(status.objectsIgnored).toBe(35);
      const ignored = status.ignored ?? [];
      expect(ignored).toHaveLength(35);
      expect(new Set(ignored.map((i) => i.reason))).toEqual(new Set([ignoreReasons.noNamespace]));
      expect(ignoreReasons.noNamespace).toBe(
        'the manifest has no namespace and the ClusterGitTrack has no defaultNamespace',
      );
      expect(ignored.map((i) => i.path)).toEqual(Array(35).fill('kubernetes-manifests.yaml'));
    } finally {
      await client.request('DELETE', clusterTrackPath(track.name));
    }
  });
});
