import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { reconcileUnderLease } from '../../../lib/lambda/reconcileUnderLease';
import { type LeaseRef, leaseTarget } from '../../../lib/lease/leaseTarget';
import { withTrackLease } from '../../../lib/lease/withTrackLease';
import { commit, createRepo, type TestRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { reconcile } from '../../../lib/reconcile/reconcile';
import type { ReconcileDeps } from '../../../lib/reconcile/reconcileDeps';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  getLive,
  includeNamespaced,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

// Item 9 of issue 7: a reconcile whose lease was taken over during apply must not prune with its
// old snapshot (it could delete what the newer holder just created) nor overwrite the newer
// holder's status.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

// A lease namespace that does not exist yet: the first acquire must create it.
const leaseNamespace = uniqueName('lk-leases');
let gitCacheRoot: string;
beforeAll(() => {
  gitCacheRoot = mkdtempSync(join(tmpdir(), 'lk-lost-lease-'));
});
afterAll(async () => {
  rmSync(gitCacheRoot, { recursive: true, force: true });
  await client?.request('DELETE', `/api/v1/namespaces/${leaseNamespace}`).catch(() => {});
});

interface LeaseObject {
  metadata: { resourceVersion: string };
  spec: Record<string, unknown>;
}
const leasePath = (t: LeaseRef) => `/apis/coordination.k8s.io/v1/namespaces/${t.namespace}/leases/${t.name}`;
const microNow = () => new Date().toISOString().replace('Z', '000Z');

/** What another invocation does when it takes the lease over (after ours expired, say). */
async function takeOver(target: LeaseRef, holder: string): Promise<void> {
  const current = await client.get<LeaseObject>(leasePath(target));
  await client.request('PUT', leasePath(target), {
    body: {
      ...current,
      spec: { ...current.spec, holderIdentity: holder, acquireTime: microNow(), renewTime: microNow() },
    },
  });
}

const trackObject = (track: TrackRef) =>
  client.get<{ metadata: { resourceVersion: string }; status?: Record<string, unknown> }>(
    resourcePath({ ...lightkeeperResources.GitTrack, namespace: track.namespace, name: track.name }),
  );

/** Names of the children the tracking objects in `ns` point at. */
/** Names the tracking objects of `ns` point at; a pruned one may wait for the GC to orphan its dependents. */
const trackedNames = async (ns: string) =>
  (
    await client.get<{
      items: Array<{ metadata: { deletionTimestamp?: string }; spec: { target: { name: string } } }>;
    }>(resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }))
  ).items
    .filter((t) => !t.metadata.deletionTimestamp)
    .map((t) => t.spec.target.name)
    .sort();

async function trackWithTwoConfigMaps(): Promise<{ ns: string; repo: TestRepo; track: TrackRef }> {
  const ns = await freshNamespace(client, 'lost');
  const repo = createRepo(server, uniqueName('lost'));
  commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '1' })), 'b.yaml': yamlOf(configMap('b')) }, 'one');
  const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
  expect((await e.run(track)).result).toBe('Succeeded');
  return { ns, repo, track };
}

/** The engine under the track's lease; the lease is taken over by `newer` as the apply starts. */
function runLosingTheLease(track: TrackRef) {
  const target = leaseTarget(track, leaseNamespace);
  let takenOver: Promise<void> | undefined;
  const summary = withTrackLease(
    client,
    target,
    { holder: 'older', waitUntil: Date.now() + 10_000 },
    (lease) => {
      const deps: ReconcileDeps = {
        client,
        config: includeNamespaced,
        gitCacheRoot,
        onProgress: (phase) => {
          if (phase === 'apply') takenOver ??= takeOver(target, 'newer');
        },
        // The real check, once the takeover has landed (it runs while the apply goes on).
        guard: async () => {
          await takenOver;
          await lease.assertHeld();
        },
      };
      return reconcile(deps, { track });
    },
  );
  return { target, summary };
}

describe('a reconcile that lost its lease', () => {
  it('prunes nothing and leaves the status to the newer holder', async () => {
    const { ns, repo, track } = await trackWithTwoConfigMaps();
    const before = await trackObject(track);
    commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '2' })), 'b.yaml': null }, 'two: b leaves git');

    const { target, summary } = runLosingTheLease(track);
    const result = await summary;

    expect(result.result).toBe('Aborted');
    expect(result.counts.pruned).toBe(0);
    expect(result.errors.join('\n')).toMatch(
      new RegExp(`lease ${leaseNamespace}/${target.name} was taken over by newer`),
    );
    // b left git but the run lost its lease before prune: b and its tracking object are still there.
    expect(await getLive(client, configMaps, 'b', ns)).toBeDefined();
    expect(await trackedNames(ns)).toEqual(['a', 'b']);
    // No status write at all: the track object is exactly as before.
    const after = await trackObject(track);
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(after.status).toEqual(before.status);
    // The newer holder's lease is left alone (our release must not delete it).
    expect((await client.get<LeaseObject>(leasePath(target))).spec.holderIdentity).toBe('newer');
  });

  it('writes no status when the lease is lost with nothing to prune', async () => {
    const { repo, track } = await trackWithTwoConfigMaps();
    const before = await trackObject(track);
    commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '3' })) }, 'three');

    const result = await runLosingTheLease(track).summary;

    expect(result.result).toBe('Aborted');
    expect(result.errors.join('\n')).toMatch(/was taken over by newer/);
    const after = await trackObject(track);
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });

  it('creates the lease namespace, and a run that keeps its lease reports as usual', async () => {
    const { ns, repo, track } = await trackWithTwoConfigMaps();
    const sha = commit(repo, { 'b.yaml': null }, 'b leaves git');
    // Whole runs: the track was first applied by `e`, whose digest key (another key namespace) is
    // not this one's, so every object is re-keyed once; an incremental run re-keys only what changed.
    const config = { ...includeNamespaced, incrementalMaxFiles: 0 };
    const underLease = () =>
      reconcileUnderLease(
        { client, config, gitCacheRoot },
        { track },
        // A short TTL: renewals run beside the checks and must not be mistaken for a takeover.
        { namespace: leaseNamespace, holder: 'only', ttlSeconds: 2, waitUntil: Date.now() + 10_000 },
      ) as Promise<ReconcileSummary>;
    expect(await underLease()).toMatchObject({ result: 'Succeeded', commit: sha, counts: { pruned: 1 } });
    expect(await trackedNames(ns)).toEqual(['a']);
    expect((await trackObject(track)).status).toMatchObject({ lastAppliedCommit: sha });
    const namespace = await client.get<{ metadata: { labels?: Record<string, string> } }>(
      `/api/v1/namespaces/${leaseNamespace}`,
    );
    expect(namespace.metadata.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'lightkeeper' });

    // A no-op reconcile stays at zero object writes; the lease's own writes are counted apart.
    const writesBefore = client.stats.writes;
    const noop = await underLease();
    expect(noop.writes.objects).toBe(0);
    expect(client.stats.writes - writesBefore).toBe(noop.writes.status);
  });
});
