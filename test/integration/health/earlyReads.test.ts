import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { TrackRef } from '../../../lib/track/trackRef';
import { eventually, freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  type engine,
  includeNamespaced,
  yamlOf,
} from '../../support/engine';
import { useEngineHarness } from '../../support/engineHarness';
import { seeRequests } from '../../support/seeRequests';

// A whole run starts health's LISTs with its apply (lib/reconcile/earlyReads.ts): a type the apply
// wrote to must be read again after it, or an object it just created would be missing.

let client: KubeClient;
let server: GitServer;
let e: ReturnType<typeof engine>;
useEngineHarness((h) => ({ client, server, e } = h));

/** The GETs of `plural` any client sends while a whole run of `track` runs, with their Accept. */
async function readsOf(track: TrackRef, plural: string) {
  const reads: string[] = [];
  const out = await seeRequests(
    (method, path, options) => {
      if (method === 'GET' && new RegExp(`/${plural}(\\?|$)`).test(path))
        reads.push(options?.accept?.includes('PartialObjectMetadata') ? 'metadata' : 'whole');
    },
    () => e.run(track, {}, { config: { ...includeNamespaced, incrementalMaxFiles: 0 } }),
  );
  return { out, reads };
}

const stopped = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: 0,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'app', image: 'busybox' }] },
    },
  },
});

describe('early health reads', () => {
  it('reads again a type the run wrote: a ConfigMap created beside an unchanged one is healthy, not missing', async () => {
    const ns = await freshNamespace(client, 'early-health');
    const repo = createRepo(server, uniqueName('early-health'));
    commit(repo, { 'one.yaml': yamlOf(configMap('one', { v: '1' }, ns)) }, 'one');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).result).toBe('Succeeded');
    commit(repo, { 'two.yaml': yamlOf(configMap('two', { v: '2' }, ns)) }, 'two');
    // Whole, not incremental: the incremental path reads each changed object with a GET.
    const out = await e.run(track, {}, { config: { ...includeNamespaced, incrementalMaxFiles: 0 } });
    expect(out.changes.map((c) => [c.subject, c.action]).sort()).toEqual([
      [`ConfigMap/${ns}/one`, 'unchanged'],
      [`ConfigMap/${ns}/two`, 'created'],
    ]);
    expect(out.health).toMatchObject({ of: 2, healthy: 2, unhealthy: [] });
  }, 60_000);

  it("judges a metadata-only type from the children's LIST: a ConfigMap being deleted is not healthy", async () => {
    const ns = await freshNamespace(client, 'early-health-meta');
    const repo = createRepo(server, uniqueName('early-health-meta'));
    commit(
      repo,
      { 'cms.yaml': yamlOf(configMap('kept', { v: '1' }, ns), configMap('going', { v: '1' }, ns)) },
      'two',
    );
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).result).toBe('Succeeded');
    // Held by another controller's finalizer and deleted: it stays, with a deletionTimestamp.
    const going = resourcePath({ ...configMaps, namespace: ns, name: 'going' });
    await client.request('PATCH', going, {
      body: { metadata: { finalizers: ['example.com/hold'] } },
      contentType: 'application/merge-patch+json',
    });
    await client.request('DELETE', going);
    try {
      const out = await e.run(track, {}, { config: { ...includeNamespaced, incrementalMaxFiles: 0 } });
      // Nothing written to ConfigMaps: health reads them from the apply's LIST, deletion included.
      expect(out.changes.map((c) => [c.subject, c.action]).sort()).toEqual([
        [`ConfigMap/${ns}/going`, 'unchanged'],
        [`ConfigMap/${ns}/kept`, 'unchanged'],
      ]);
      expect(out.health).toMatchObject({ of: 2, healthy: 1 });
      expect(out.health?.unhealthy.join(' ')).toContain('going');
    } finally {
      await client.request('PATCH', going, {
        body: { metadata: { finalizers: null } },
        contentType: 'application/merge-patch+json',
      });
    }
  }, 60_000);

  it("judges a Deployment from the children's LIST, listed whole: one read of Deployments, its status seen", async () => {
    const ns = await freshNamespace(client, 'early-health-whole');
    const repo = createRepo(server, uniqueName('early-health-whole'));
    commit(repo, { 'web.yaml': yamlOf(stopped('web')) }, 'web');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).result).toBe('Succeeded');
    // Rolled out (0 replicas) once the deployment controller observed it: Current from then on.
    const web = resourcePath({ apiVersion: 'apps/v1', plural: 'deployments', namespace: ns, name: 'web' });
    await eventually(
      'the deployment controller observed web',
      async () =>
        (await client.get<{ status?: { observedGeneration?: number } }>(web)).status?.observedGeneration ===
        1,
    );
    const { out, reads } = await readsOf(track, 'deployments');
    expect(out.changes.map((c) => [c.subject, c.action])).toEqual([
      [`Deployment.apps/${ns}/web`, 'unchanged'],
    ]);
    // Health read its status from the apply's LIST (metadata alone would not say it rolled out).
    expect(out.health).toMatchObject({ of: 1, healthy: 1, unhealthy: [] });
    expect(reads).toEqual(['whole']);
  }, 60_000);

  it('lists a type health reads the metadata of as metadata only, once', async () => {
    const ns = await freshNamespace(client, 'early-health-once');
    const repo = createRepo(server, uniqueName('early-health-once'));
    commit(repo, { 'one.yaml': yamlOf(configMap('one', { v: '1' }, ns)) }, 'one');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).result).toBe('Succeeded');
    const { out, reads } = await readsOf(track, 'configmaps');
    expect(out.health).toMatchObject({ of: 1, healthy: 1 });
    expect(reads).toEqual(['metadata']);
  }, 60_000);
});
