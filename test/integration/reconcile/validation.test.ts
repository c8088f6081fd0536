import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, uniqueName } from '../../support/cluster';
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
import { createRole, grant } from '../../support/tenancy';

// A commit applies whole, or nothing the API server would refuse: every changed object is dry-run
// (lib/apply/validateChanges.ts) before the first write.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const deployment = (name: string, selector = true) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    ...(selector ? { selector: { matchLabels: { app: name } } } : {}),
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name, image: 'registry.example/web:1' }] },
    },
  },
});

/** The tracking objects in `namespace`, by name of their child. */
async function trackedIn(namespace: string): Promise<string[]> {
  const list = await client.get<{ items: Array<{ spec: { target: { name: string } } }> }>(
    resourcePath({ ...lightkeeperResources.GitTrackObject, namespace }),
  );
  return list.items.map((t) => t.spec.target.name).sort();
}

/** Runs `track`, answering its summary and the requests it sent. */
async function counted(track: TrackRef) {
  const before = { ...client.stats };
  const summary = await e.run(track);
  return {
    summary,
    writes: client.stats.writes - before.writes,
    dryRuns: client.stats.dryRuns - before.dryRuns,
  };
}

const conditionOf = async (track: TrackRef, type: string) =>
  (await trackStatus(client, track)).conditions.find((c) => c.type === type);

describe('a commit the API server would refuse part of', () => {
  it('applies nothing of it, tracks nothing new, prunes nothing, and names the refusal', async () => {
    const ns = await freshNamespace(client, 'refused');
    const repo = createRepo(server, uniqueName('refused'));
    const first = commit(
      repo,
      { 'keep.yaml': yamlOf(configMap('keep', { v: '1' })), 'old.yaml': yamlOf(configMap('old')) },
      'first',
    );
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).result).toBe('Succeeded');
    const trackedBefore = await trackedIn(ns);
    const keepVersion = (await getLive(client, configMaps, 'keep', ns))?.metadata.resourceVersion;
    expect(trackedBefore).toHaveLength(2);

    const second = commit(
      repo,
      {
        'keep.yaml': yamlOf(configMap('keep', { v: '2' })),
        'old.yaml': null,
        'new.yaml': yamlOf(configMap('new')),
        'web.yaml': yamlOf(deployment('web', false)),
      },
      'a deployment without a selector',
    );
    const { summary, writes } = await counted(track);
    expect(summary).toMatchObject({
      result: 'Failed',
      commit: second,
      counts: { applied: 0, failed: 1, pruned: 0 },
    });
    // Nothing written: the only requests counted as writes are the SelfSubjectAccessReviews asked
    // for the two new objects (may patch, may delete), and the run's status and Events.
    expect(summary.writes.objects).toBe(4);
    expect(writes).toBe(4 + summary.writes.status);
    const [refusal] = summary.errors;
    expect(summary.errors).toHaveLength(1);
    expect(refusal).toMatch(
      new RegExp(`^web\\.yaml:\\d+: Deployment\\.apps/${ns}/web: .*spec\\.selector`, 's'),
    );

    expect(await getLive(client, configMaps, 'new', ns)).toBeUndefined();
    expect((await getLive(client, configMaps, 'keep', ns))?.metadata.resourceVersion).toBe(keepVersion);
    expect(await getLive(client, configMaps, 'old', ns)).toBeDefined();
    expect(await trackedIn(ns)).toEqual(trackedBefore);

    const status = await trackStatus(client, track);
    expect(status.lastAppliedCommit).toBe(first);
    expect(await conditionOf(track, 'Applied')).toMatchObject({
      status: 'False',
      reason: 'ValidationFailed',
      message: expect.stringContaining(
        `applied 0 of 3 objects at ${second}; 1 refused before anything was written:\nweb.yaml:1: Deployment.apps/${ns}/web: `,
      ),
    });
    expect(await conditionOf(track, 'Ready')).toMatchObject({ status: 'False', reason: 'ValidationFailed' });
    expect(await conditionOf(track, 'Pruned')).toMatchObject({ reason: 'PruneSkipped' });

    // Fixed, the commit applies whole and the stale object goes.
    commit(repo, { 'web.yaml': yamlOf(deployment('web')) }, 'with a selector');
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', counts: { applied: 3, pruned: 1 } });
  });

  it("applies nothing when the GitTrack's identity may not write one of its kinds", async () => {
    const ns = await freshNamespace(client, 'no-write');
    // May manage ConfigMaps, and only read Deployments.
    await createRole(client, ns, 'read-deployments', [
      {
        apiGroups: [''],
        resources: ['configmaps'],
        verbs: ['get', 'list', 'watch', 'create', 'patch', 'update', 'delete'],
      },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch'] },
    ]);
    await grant(client, ns, { role: 'read-deployments' });
    const repo = createRepo(server, uniqueName('no-write'));
    commit(repo, { 'config.yaml': yamlOf(configMap('one')), 'web.yaml': yamlOf(deployment('web')) }, 'both');
    const track = await createGitTrack(
      client,
      ns,
      { repository: repo.url, reference: 'main' },
      { access: false },
    );

    const { summary } = await counted(track);
    expect(summary).toMatchObject({ result: 'Failed', counts: { applied: 0, failed: 1 } });
    // Access reviews only (may patch and delete the ConfigMap; may patch the Deployment: no).
    expect(summary.writes.objects).toBe(3);
    expect(summary.errors).toEqual([
      `web.yaml:1: ServiceAccount ${ns}/default may not patch (apply) Deployment.apps ${ns}/web; nothing of it was applied or tracked`,
    ]);
    expect(await getLive(client, configMaps, 'one', ns)).toBeUndefined();
    expect(await trackedIn(ns)).toEqual([]);
    expect(await conditionOf(track, 'Applied')).toMatchObject({ reason: 'ValidationFailed' });
  });

  it('costs nothing when nothing changed: no write, no dry-run', async () => {
    const ns = await freshNamespace(client, 'noop');
    const repo = createRepo(server, uniqueName('noop'));
    commit(
      repo,
      { 'a.yaml': yamlOf(configMap('a'), configMap('b')), 'web.yaml': yamlOf(deployment('web')) },
      'three',
    );
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const firstRun = await counted(track);
    expect(firstRun.summary.result).toBe('Succeeded');
    expect(firstRun.dryRuns).toBe(3);

    const noop = await counted(track);
    expect(noop.summary).toMatchObject({ result: 'Succeeded', counts: { applied: 0, inSync: 3 } });
    expect(noop.dryRuns).toBe(0);
    expect(noop.summary.writes.objects).toBe(0);
    expect(noop.writes).toBe(noop.summary.writes.status);
  });
});

describe('a commit that creates the namespace its objects live in', () => {
  it('applies: what is in the new namespace is validated once the namespace exists', async () => {
    const ns = uniqueName('made');
    const repo = createRepo(server, uniqueName('made'));
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } };
    commit(
      repo,
      {
        'ns.yaml': yamlOf(namespace),
        'in.yaml': yamlOf({ ...configMap('inside'), metadata: { name: 'inside', namespace: ns } }),
      },
      'a namespace and a config map in it',
    );
    const track = await createClusterGitTrack(client, {
      repository: repo.url,
      reference: 'main',
      deletionPolicy: 'Delete',
    });
    try {
      const { summary, dryRuns } = await counted(track);
      expect(summary).toMatchObject({ result: 'Succeeded', counts: { applied: 2 } });
      expect(dryRuns).toBe(2);
      expect(await getLive(client, configMaps, 'inside', ns)).toBeDefined();

      // A refusal inside a namespace the commit creates comes after the namespace: nothing else is written.
      const other = uniqueName('made');
      commit(
        repo,
        {
          'other.yaml': yamlOf({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: other } }),
          'more.yaml': yamlOf({ ...configMap('more'), metadata: { name: 'more', namespace: other } }),
          'web.yaml': yamlOf({ ...deployment('web', false), metadata: { name: 'web', namespace: other } }),
          'in.yaml': yamlOf({
            ...configMap('inside', { v: '2' }),
            metadata: { name: 'inside', namespace: ns },
          }),
        },
        'another namespace, a broken deployment in it',
      );
      const refused = await counted(track);
      expect(refused.summary).toMatchObject({
        result: 'Failed',
        counts: { applied: 1, failed: 1, pruned: 0 },
      });
      expect(refused.summary.changes).toContainEqual({ subject: `Namespace/${other}`, action: 'created' });
      expect(await getLive(client, configMaps, 'more', other)).toBeUndefined();
      expect((await getLive(client, configMaps, 'inside', ns))?.data).not.toEqual({ v: '2' });
      expect(await trackedIn(other)).toEqual([]);
      expect(await conditionOf(track, 'Applied')).toMatchObject({
        reason: 'ValidationFailed',
        message: expect.stringContaining(
          '1 refused once the 1 namespaces and CRDs they need were written, nothing else written',
        ),
      });
    } finally {
      await client.request(
        'DELETE',
        resourcePath({ ...lightkeeperResources.ClusterGitTrack, name: track.name }),
      );
    }
  });
});
