import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { shardEvents } from '../../../lib/lambda/shardEvents';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { reconcile } from '../../../lib/reconcile/reconcile';
import type { ReconcileDeps } from '../../../lib/reconcile/reconcileDeps';
import type { ReconcileEvent } from '../../../lib/reconcile/reconcileEvent';
import { reconcileShard } from '../../../lib/reconcile/reconcileShard';
import type { ShardSettings } from '../../../lib/reconcile/shardRecord';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import type { ShardsRecord } from '../../../lib/track/shardsStatus';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createClusterGitTrack,
  getLive,
  includeNamespaced,
  patchTrackSpec,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { useEngineHarness } from '../../support/engineHarness';

// The barrier of a sharded apply on the real API server: a coordinating run applies the
// definitions and records the shards, each shard run applies its namespace and records its outcome
// with a conditional write, and prune runs once, only after every shard of one commit and plan
// succeeded. The reconcile function's queue is played here in-process, event by event, with the
// same events it would invoke (lib/lambda/shardEvents.ts).

let client: KubeClient;
let server: GitServer;
useEngineHarness((h) => ({ client, server } = h));
const gitCacheRoot = mkdtempSync(join(tmpdir(), 'lk-shards-git-'));
afterAll(() => rmSync(gitCacheRoot, { recursive: true, force: true }));

const settings: ShardSettings = { threshold: 4, fanout: 2, pendingMs: 60_000 };
const deps = (more: Partial<ReconcileDeps> = {}): ReconcileDeps => ({
  client,
  // A push of a few files would be applied incrementally (only those files, never sharded).
  config: { ...includeNamespaced, incrementalMaxFiles: 0 },
  gitCacheRoot,
  concurrency: 8,
  shards: settings,
  ...more,
});

/** Runs one event as the reconcile function would: a shard without the lease, else the engine. */
const runEvent = (event: ReconcileEvent, d = deps()) =>
  event.shard && event.commit
    ? reconcileShard(d, { ...event, commit: event.commit, shard: event.shard })
    : reconcile(d, event);

interface Played {
  runs: Array<{ event: ReconcileEvent; out: ReconcileSummary }>;
  /** Runs that deleted anything. */
  pruning: ReconcileSummary[];
}

/** Plays the queue from `first` until it is empty; `drop` loses an event instead of running it. */
async function play(
  first: ReconcileEvent,
  drop: (e: ReconcileEvent) => boolean = () => false,
  d: ReconcileDeps = deps(),
): Promise<Played> {
  const queue = [first];
  const played: Played = { runs: [], pruning: [] };
  while (queue.length > 0) {
    const event = queue.shift() as ReconcileEvent;
    if (drop(event)) continue;
    const out = await runEvent(event, d);
    played.runs.push({ event, out });
    if (out.counts.pruned > 0) played.pruning.push(out);
    queue.push(...shardEvents(event, out));
  }
  return played;
}

const shardsOf = async (track: TrackRef) =>
  (
    await client.get<{ status?: { shards?: ShardsRecord } }>(
      `/apis/lightkeeper.dev/v1alpha1/clustergittracks/${track.name}`,
    )
  ).status?.shards;

/** Three namespaces of three ConfigMaps each (9 namespaced objects, threshold 4: three shards). */
async function shardedTrack(prefix: string) {
  // Sorted: shards are started in the order of their ids.
  const namespaces = [
    await freshNamespace(client, prefix),
    await freshNamespace(client, prefix),
    await freshNamespace(client, prefix),
  ].sort();
  const repo = createRepo(server, uniqueName(prefix));
  const first = commit(
    repo,
    {
      'stale.yaml': yamlOf({ ...configMap('stale'), metadata: { name: 'stale', namespace: namespaces[0] } }),
    },
    'one stale object',
  );
  const track = await createClusterGitTrack(client, {
    repository: repo.url,
    reference: 'main',
    defaultNamespace: namespaces[0],
  });
  // One object, under the threshold: applied whole, as any track is.
  expect((await reconcile(deps(), { track })).result).toBe('Succeeded');
  const files: Record<string, string | null> = { 'stale.yaml': null };
  for (const ns of namespaces)
    files[`${ns}.yaml`] = yamlOf(
      ...['a', 'b', 'c'].map((n) => ({
        ...configMap(`cm-${n}`, { n }),
        metadata: { name: `cm-${n}`, namespace: ns },
      })),
    );
  return { namespaces, repo, first, track, files };
}

const event = (track: TrackRef, reason = 'push'): ReconcileEvent => ({ track, mode: 'apply', reason });

describe('shards', () => {
  it('every shard succeeds: the definitions by the coordinator, each namespace by its shard, exactly one prune', async () => {
    const { namespaces, repo, track, files } = await shardedTrack('shards-ok');
    // A cluster-scoped object (the coordinator's) and a webhook configuration that matches nothing (the last run's).
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: uniqueName('shards-role') },
      rules: [],
    };
    const guard = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: uniqueName('shards-guard') },
      webhooks: [
        {
          name: 'never.shards.lightkeeper.dev',
          clientConfig: { url: 'https://127.0.0.1:1/' },
          rules: [
            {
              apiGroups: ['never.example.com'],
              apiVersions: ['v1'],
              operations: ['CREATE'],
              resources: ['nothings'],
            },
          ],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          failurePolicy: 'Ignore',
        },
      ],
    };
    const head = commit(
      repo,
      { ...files, 'cluster.yaml': yamlOf(role, guard) },
      'nine objects in three namespaces',
    );
    const vwcs = { apiVersion: 'admissionregistration.k8s.io/v1', plural: 'validatingwebhookconfigurations' };
    const played = await play(event(track));
    const [coordinator, ...rest] = played.runs;
    expect(coordinator?.out).toMatchObject({ result: 'Continuing', commit: head });
    expect(coordinator?.out.changes.map((c) => [c.subject, c.action])).toEqual([
      [`ClusterRole.rbac.authorization.k8s.io/${role.metadata.name}`, 'created'],
    ]);
    expect(coordinator?.out.shards).toMatchObject({ total: 3, started: [namespaces[0], namespaces[1]] });
    const shardRuns = rest.filter((r) => r.event.shard);
    expect(shardRuns.map((r) => [r.event.shard?.id, r.out.result, r.out.counts.applied])).toEqual(
      namespaces.map((ns) => [ns, 'Succeeded', 3]),
    );
    // The fan-out cap: the third shard was started by the first shard that finished, not the coordinator.
    expect(shardRuns[0]?.out.shards?.started).toEqual([namespaces[2]]);
    // Shards never prune; the one run after the last success does, once.
    expect(shardRuns.every((r) => r.out.counts.pruned === 0)).toBe(true);
    expect(played.pruning).toHaveLength(1);
    const completing = played.runs.at(-1);
    expect(completing?.event).toMatchObject({ continuation: true, commit: head });
    expect(completing?.out).toMatchObject({ result: 'Succeeded', commit: head });
    // Everything in sync but the webhook configuration, applied last as a whole run applies it.
    expect(completing?.out.counts).toMatchObject({ applied: 1, inSync: 11, pruned: 1 });
    expect(completing?.out.changes.find((c) => c.action === 'created')?.subject).toContain(
      guard.metadata.name,
    );
    expect(await getLive(client, vwcs, guard.metadata.name)).toBeDefined();
    expect(await getLive(client, configMaps, 'stale', namespaces[0])).toBeUndefined();
    for (const ns of namespaces) expect(await getLive(client, configMaps, 'cm-c', ns)).toBeDefined();
    const status = await trackStatus(client, track);
    expect(status.lastAppliedCommit).toBe(head);
    expect(status.conditions.find((c) => c.type === 'Ready')).toMatchObject({ status: 'True' });
    const record = await shardsOf(track);
    expect(record).toMatchObject({ commit: head, threshold: 4, objects: 11 });
    expect(record?.shards.map((s) => [s.id, s.state, s.objects, s.applied])).toEqual(
      namespaces.map((ns) => [ns, 'succeeded', 3, 3]),
    );
    // Suspended, so that no later sweep applies them again; the cluster-scoped objects are removed.
    await patchTrackSpec(client, track, { suspend: true });
    await client.request(
      'DELETE',
      `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${guard.metadata.name}`,
    );
    await client.request('DELETE', `/apis/rbac.authorization.k8s.io/v1/clusterroles/${role.metadata.name}`);
  }, 120_000);

  it('a shard fails: nothing is pruned, Ready names the shard; a fixed commit completes with one prune', async () => {
    const { namespaces, repo, track, files } = await shardedTrack('shards-fail');
    const bad = namespaces[1] as string;
    // A Service the API server refuses (a port out of range): its shard's dry-run fails it.
    const refused = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'bad', namespace: bad },
      spec: { ports: [{ port: 70_000 }] },
    };
    const head = commit(
      repo,
      { ...files, [`${bad}.yaml`]: `${files[`${bad}.yaml`]}---\n${yamlOf(refused)}` },
      'one bad object',
    );
    const played = await play(event(track));
    const failed = played.runs.find((r) => r.event.shard?.id === bad);
    expect(failed?.out.result).toBe('Failed');
    expect(played.runs.filter((r) => r.event.shard && r.out.result === 'Succeeded')).toHaveLength(2);
    // No run pruned, and none was started to: the record never completed.
    expect(played.pruning).toEqual([]);
    expect(played.runs.some((r) => r.event.continuation)).toBe(false);
    expect(await getLive(client, configMaps, 'stale', namespaces[0])).toBeDefined();
    const ready = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'ShardFailed' });
    expect(ready?.message).toContain(`shard ${bad} of ${head} failed`);
    expect(ready?.message).toContain('Service/');
    expect((await shardsOf(track))?.shards.find((s) => s.id === bad)?.state).toBe('failed');

    // The next run restarts only the failed shard (another commit: the fixed one starts afresh).
    const again = await play(event(track, 'sweep'));
    expect(again.runs.filter((r) => r.event.shard).map((r) => r.event.shard?.id)).toEqual([bad]);
    expect(again.pruning).toEqual([]);
    const fixed = commit(repo, files, 'the bad object removed');
    const done = await play(event(track));
    expect(done.pruning).toHaveLength(1);
    expect(done.runs.at(-1)?.out).toMatchObject({ result: 'Succeeded', commit: fixed });
    expect(await getLive(client, configMaps, 'stale', namespaces[0])).toBeUndefined();
  }, 180_000);

  it('a newer commit mid-run supersedes: the old shards stand down and the old run never prunes', async () => {
    const { namespaces, repo, track, files } = await shardedTrack('shards-newer');
    const older = commit(repo, files, 'nine objects');
    const coordinator = await runEvent(event(track));
    const oldShards = shardEvents(event(track), coordinator);
    expect(oldShards).toHaveLength(2);
    // One old shard finishes before the push.
    const firstOld = await runEvent(oldShards[0] as ReconcileEvent);
    expect(firstOld.result).toBe('Succeeded');
    const later = shardEvents(oldShards[0] as ReconcileEvent, firstOld);
    const ns0 = namespaces[0] as string;
    const newer = commit(
      repo,
      {
        [`${ns0}.yaml`]: yamlOf(
          { ...configMap('cm-a', { n: 'new' }), metadata: { name: 'cm-a', namespace: ns0 } },
          ...['b', 'c', 'd'].map((n) => ({
            ...configMap(`cm-${n}`),
            metadata: { name: `cm-${n}`, namespace: ns0 },
          })),
        ),
      },
      'newer',
    );
    const newerPlay = play(event(track, 'newer push'));
    const newerDone = await newerPlay;
    // The old shards still queued: each stands down, none starts the completing run.
    for (const e of [oldShards[1] as ReconcileEvent, ...later]) {
      const out = await runEvent(e);
      expect(out.result).toBe('Aborted');
      expect(out.errors.at(-1)).toContain(`superseded: the track is being applied at ${newer}`);
      expect(shardEvents(e, out)).toEqual([]);
    }
    // Even a completing run of the older commit (a retry) stands down: it never prunes.
    const oldCompletion = await runEvent({ ...event(track), commit: older, continuation: true });
    expect(oldCompletion).toMatchObject({ result: 'Aborted' });
    expect(oldCompletion.counts.pruned).toBe(0);
    expect(newerDone.pruning).toHaveLength(1);
    expect(newerDone.runs.at(-1)?.out).toMatchObject({ result: 'Succeeded', commit: newer });
    expect((await getLive(client, configMaps, 'cm-a', ns0))?.data).toEqual({ n: 'new' });
    expect((await trackStatus(client, track)).lastAppliedCommit).toBe(newer);
  }, 180_000);

  it('a lost shard invocation: the next run reports it stuck and completes the work', async () => {
    const { namespaces, repo, track, files } = await shardedTrack('shards-lost');
    const head = commit(repo, files, 'nine objects');
    const lost = namespaces[1] as string;
    const quick = deps({ shards: { ...settings, pendingMs: 1 } });
    const first = await play(event(track), (e) => e.shard?.id === lost);
    expect(first.pruning).toEqual([]);
    expect((await shardsOf(track))?.shards.find((s) => s.id === lost)?.state).toBe('running');
    // A run within the pending time waits for it: definitions in sync, no shard restarted.
    const waiting = await reconcile(deps(), event(track, 'sweep'));
    expect(waiting.shards).toMatchObject({ started: [], running: [lost] });
    // Past it (the sweep's next drift run), the shard is reported and restarted, and the work completes.
    const sweep = await reconcile(quick, { ...event(track, 'sweep'), mode: 'drift' });
    expect(sweep.shards).toMatchObject({ started: [lost], stuck: [lost] });
    const events = await client.get<{ items: Array<{ reason: string; message: string }> }>(
      `/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=${track.name}`,
    );
    expect(events.items.find((e) => e.reason === 'ShardStuck')?.message).toBe(
      `shards of ${head} pending too long, restarted: ${lost}`,
    );
    const rest: Played = { runs: [], pruning: [] };
    const queue = shardEvents(event(track), sweep);
    while (queue.length > 0) {
      const e = queue.shift() as ReconcileEvent;
      const out = await runEvent(e);
      rest.runs.push({ event: e, out });
      if (out.counts.pruned > 0) rest.pruning.push(out);
      queue.push(...shardEvents(e, out));
    }
    expect(rest.pruning).toHaveLength(1);
    expect(await getLive(client, configMaps, 'stale', namespaces[0])).toBeUndefined();
    expect((await trackStatus(client, track)).lastAppliedCommit).toBe(head);
  }, 180_000);

  it('a shard of a track suspended meanwhile stands down, applying nothing', async () => {
    const { namespaces, repo, track, files } = await shardedTrack('shards-suspend');
    commit(repo, files, 'nine objects');
    const coordinator = await runEvent(event(track));
    const queued = shardEvents(event(track), coordinator);
    await patchTrackSpec(client, track, { suspend: true });
    const out = await runEvent(queued[0] as ReconcileEvent);
    expect(out.result).toBe('Aborted');
    expect(out.errors.at(-1)).toContain('spec.suspend is true');
    expect(shardEvents(queued[0] as ReconcileEvent, out)).toEqual([]);
    expect(await getLive(client, configMaps, 'cm-a', namespaces[0])).toBeUndefined();
  }, 120_000);

  it('small namespaces are packed: five namespaces of one object are two shard runs, one prune', async () => {
    const namespaces: string[] = [];
    for (let i = 0; i < 5; i++) namespaces.push(await freshNamespace(client, 'shards-pack'));
    namespaces.sort();
    const repo = createRepo(server, uniqueName('shards-pack'));
    const files = Object.fromEntries(
      namespaces.map((ns) => [
        `${ns}.yaml`,
        yamlOf({ ...configMap('one'), metadata: { name: 'one', namespace: ns } }),
      ]),
    );
    const head = commit(repo, files, 'five namespaces of one object');
    const track = await createClusterGitTrack(client, {
      repository: repo.url,
      reference: 'main',
      defaultNamespace: namespaces[0],
    });
    const played = await play(event(track));
    // 5 namespaced objects over a fan-out of 2: at most 3 per shard, neighbours in name order.
    const packs = [`${namespaces[0]}..${namespaces[2]}`, `${namespaces[3]}..${namespaces[4]}`];
    const shardRuns = played.runs.filter((r) => r.event.shard);
    expect(shardRuns.map((r) => [r.event.shard?.id, r.out.result, r.out.counts.applied])).toEqual([
      [packs[0], 'Succeeded', 3],
      [packs[1], 'Succeeded', 2],
    ]);
    expect(played.runs.at(-1)?.out).toMatchObject({ result: 'Succeeded', commit: head });
    expect(await shardsOf(track)).toMatchObject({ threshold: 4, perShard: 3, objects: 5 });
    for (const ns of namespaces) expect(await getLive(client, configMaps, 'one', ns)).toBeDefined();
    await patchTrackSpec(client, track, { suspend: true });
  }, 120_000);

  it('a shard out of time goes on in a new run of itself; the apply still prunes once', async () => {
    const { namespaces, repo, track, files } = await shardedTrack('shards-budget');
    const head = commit(repo, files, 'nine objects');
    // A budget spent at once, one object at a time: each shard run brings one object into sync
    // (every run makes progress), then stops with the rest not taken.
    const played = await play(event(track), undefined, deps({ timeBudgetMs: 0, concurrency: 1 }));
    const shardRuns = played.runs.filter((r) => r.event.shard);
    for (const ns of namespaces) {
      const runs = shardRuns.filter((r) => r.event.shard?.id === ns);
      expect(runs.map((r) => r.out.result)).toEqual(['Continuing', 'Continuing', 'Succeeded']);
      expect(runs.map((r) => r.out.counts.applied)).toEqual([1, 1, 1]);
      expect(runs.slice(1).every((r) => r.event.reason.endsWith(', continued'))).toBe(true);
    }
    expect(played.pruning).toHaveLength(1);
    expect(played.runs.at(-1)?.out).toMatchObject({ result: 'Succeeded', commit: head });
    const record = await shardsOf(track);
    expect(record?.shards.map((s) => [s.state, s.applied])).toEqual(namespaces.map(() => ['succeeded', 3]));
    for (const ns of namespaces)
      for (const n of ['a', 'b', 'c']) expect(await getLive(client, configMaps, `cm-${n}`, ns)).toBeDefined();
    expect(await getLive(client, configMaps, 'stale', namespaces[0])).toBeUndefined();
  }, 180_000);

  it('a shard reads only its namespaces: its children and tracking objects are listed there', async () => {
    const { namespaces, repo, track, files } = await shardedTrack('shards-reads');
    commit(repo, files, 'nine objects');
    const coordinator = await reconcile(deps(), event(track));
    const first = shardEvents(event(track), coordinator)[0] as ReconcileEvent;
    // One namespace per shard here (three objects each, at most four per shard).
    const ns = first.shard?.id as string;
    expect(namespaces).toContain(ns);
    const paths: string[] = [];
    const out = await runEvent(first, deps({ client: recordingGets(client, paths) }));
    expect(out).toMatchObject({ result: 'Succeeded', counts: { applied: 3 } });
    const lists = paths.filter((p) => /\/(configmaps|gittrackobjects|clustergittrackobjects)$/.test(p));
    expect([...new Set(lists)].sort()).toEqual([
      `/api/v1/namespaces/${ns}/configmaps`,
      `/apis/lightkeeper.dev/v1alpha1/namespaces/${ns}/gittrackobjects`,
    ]);
    await patchTrackSpec(client, track, { suspend: true });
  }, 120_000);
});

/** The client, noting the path of every GET it sends (a LIST is a GET of a collection). */
function recordingGets(inner: KubeClient, paths: string[]): KubeClient {
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === 'get')
        return (path: string, options?: Parameters<KubeClient['get']>[1]) => {
          paths.push(path);
          return target.get(path, options);
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
