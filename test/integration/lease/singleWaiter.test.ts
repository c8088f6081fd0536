import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { reconcileUnderLease } from '../../../lib/lambda/reconcileUnderLease';
import { type Coalesced, isCoalesced } from '../../../lib/lease/coalesced';
import { type LeaseRef, type LeaseTarget, leaseTarget } from '../../../lib/lease/leaseTarget';
import { TrackLease } from '../../../lib/lease/trackLease';
import { waiterQueued } from '../../../lib/lease/waiterQueued';
import { withTrackLease } from '../../../lib/lease/withTrackLease';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import { eventually, freshNamespace, kubeClient, uniqueName } from '../../support/cluster';
import { configMap, createGitTrack, includeNamespaced, yamlOf } from '../../support/engine';

// Item 10 of issue 7: however many deliveries arrive while a track runs, one invocation waits and
// the others return at once (`coalesced`); the one waiting reconciles the newest head.

let client: KubeClient;
let server: GitServer;
let leaseNamespace: string;
let gitCacheRoot: string;

beforeAll(async () => {
  client = await kubeClient();
  server = await startGitServer();
  leaseNamespace = await freshNamespace(client, 'waiters');
  gitCacheRoot = mkdtempSync(join(tmpdir(), 'lk-waiters-'));
});
afterAll(async () => {
  rmSync(gitCacheRoot, { recursive: true, force: true });
  await client?.request('DELETE', `/api/v1/namespaces/${leaseNamespace}`).catch(() => {});
  await client?.close();
  await server?.close();
});

const leasePath = (t: LeaseRef) => `/apis/coordination.k8s.io/v1/namespaces/${t.namespace}/leases/${t.name}`;
const slotOf = (t: LeaseTarget): LeaseRef => ({ namespace: t.namespace, name: t.waiterName });
const holderOf = async (t: LeaseRef) =>
  (await client.find<{ spec: { holderIdentity?: string } }>(leasePath(t)))?.spec.holderIdentity;
/** How long after its acquisition a lease was last renewed (ms): past its TTL, only heartbeats kept it. */
const renewedAfterMs = async (t: LeaseRef) => {
  const spec = (await client.find<{ spec: { acquireTime: string; renewTime: string } }>(leasePath(t)))?.spec;
  return spec ? Date.parse(spec.renewTime) - Date.parse(spec.acquireTime) : 0;
};

async function holdLease(target: LeaseTarget, holder: string): Promise<TrackLease> {
  const attempt = await TrackLease.tryAcquire(client, target, holder, 60);
  if (!('acquired' in attempt)) throw new Error(`lease held by ${attempt.heldBy}`);
  return attempt.acquired;
}

/** A promise with its state visible, and the time it took to settle. */
function tracked<T>(promise: Promise<T>) {
  const start = performance.now();
  const state: { done: boolean; value?: T; ms?: number } = { done: false };
  const settled = promise.then((value) => {
    Object.assign(state, { done: true, value, ms: performance.now() - start });
    return value;
  });
  return { state, settled };
}

/** A delivery for the head of the track: coalesced when another invocation already waits. */
const delivery = (target: LeaseTarget, holder: string, ran: string[]) =>
  tracked(
    withTrackLease(
      client,
      target,
      { holder, coalesce: true, pollMs: 100, waiterTtlSeconds: 2, waitUntil: Date.now() + 60_000 },
      async () => {
        ran.push(holder);
        return holder;
      },
    ),
  );

describe('one waiter per track', () => {
  it('lets one of six deliveries wait and sends the other five home at once', async () => {
    const target = leaseTarget({ kind: 'ClusterGitTrack', name: uniqueName('busy') }, leaseNamespace);
    const holding = await holdLease(target, 'running');
    const ran: string[] = [];
    const deliveries = Array.from({ length: 6 }, (_, i) => delivery(target, `delivery-${i}`, ran));

    await eventually(
      'five deliveries returned',
      async () => deliveries.filter((d) => d.state.done).length === 5,
      10_000,
    );
    // Time passing is the point here: the sixth delivery must still be waiting a while later.
    await sleep(500);
    const waiting = deliveries.filter((d) => !d.state.done);
    expect(waiting).toHaveLength(1);
    const waiter = `delivery-${deliveries.indexOf(waiting[0]!)}`;
    for (const d of deliveries.filter((x) => x.state.done)) {
      expect(d.state.value).toEqual({ outcome: 'coalesced', heldBy: 'running', waiter });
      // "At once": no polling, no waiting for the holder (which holds the lease for 60 s).
      expect(d.state.ms).toBeLessThan(3_000);
    }
    expect(await holderOf(slotOf(target))).toBe(waiter);

    // The waiter's heartbeat keeps its 2 s slot alive: once it has renewed the slot more than 2 s
    // after taking it (without heartbeats it would have expired), a later delivery still coalesces.
    await eventually(
      'the heartbeat renewed the slot past its TTL',
      async () => (await renewedAfterMs(slotOf(target))) > 2_000,
      10_000,
    );
    const late = delivery(target, 'late', ran);
    expect(await late.settled).toEqual({ outcome: 'coalesced', heldBy: 'running', waiter });

    await holding.release();
    expect(await waiting[0]!.settled).toBe(waiter);
    expect(ran).toEqual([waiter]);
    // The waiter gave up its slot as soon as it held the lease, and the lease when done.
    expect(await holderOf(slotOf(target))).toBeUndefined();
    expect(await holderOf(target)).toBeUndefined();
  });

  it('replaces a waiter that stopped heartbeating', async () => {
    const target = leaseTarget({ kind: 'ClusterGitTrack', name: uniqueName('dead') }, leaseNamespace);
    const holding = await holdLease(target, 'running');
    // What a waiter that died leaves behind: its slot, no longer renewed.
    const dead = await TrackLease.tryAcquire(client, slotOf(target), 'dead-waiter', 2);
    expect('acquired' in dead).toBe(true);
    const ran: string[] = [];

    const early = delivery(target, 'early', ran);
    expect(await early.settled).toEqual({ outcome: 'coalesced', heldBy: 'running', waiter: 'dead-waiter' });

    await eventually(
      'the dead waiter’s slot expired',
      async () => !(await waiterQueued(client, target)),
      10_000,
    );
    const next = delivery(target, 'next', ran);
    await eventually('next took the slot', async () => (await holderOf(slotOf(target))) === 'next', 10_000);
    expect(next.state.done).toBe(false);
    const after = delivery(target, 'after', ran);
    expect(await after.settled).toEqual({ outcome: 'coalesced', heldBy: 'running', waiter: 'next' });

    await holding.release();
    expect(await next.settled).toBe('next');
    expect(ran).toEqual(['next']);
  });

  it('never coalesces a replay of a pinned commit: it waits its own turn', async () => {
    const ns = await freshNamespace(client, 'pinned');
    const repo = createRepo(server, uniqueName('pinned'));
    const first = commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '1' })) }, 'one');
    const head = commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '2' })) }, 'two');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const target = leaseTarget(track, leaseNamespace);
    const holding = await holdLease(target, 'running');
    const invoke = (holder: string, commit?: string) =>
      tracked(
        reconcileUnderLease(
          { client, config: includeNamespaced, gitCacheRoot },
          { track, commit, reason: holder },
          { namespace: leaseNamespace, holder, pollMs: 100, waitUntil: Date.now() + 60_000 },
        ),
      );

    const headRequest = invoke('head');
    await eventually('head waits', async () => (await holderOf(slotOf(target))) === 'head', 10_000);
    const replay = invoke('replay', first);
    const duplicate = invoke('duplicate');
    const coalesced = (await duplicate.settled) as Coalesced;
    expect(isCoalesced(coalesced) && coalesced.waiter).toBe('head');
    // Time passing is the point here: a replay that coalesced would have returned by now.
    await sleep(500);
    expect(replay.state.done).toBe(false);

    await holding.release();
    const results = (await Promise.all([headRequest.settled, replay.settled])) as ReconcileSummary[];
    expect(results.map((r) => [r.result, r.commit])).toEqual([
      ['Succeeded', head],
      ['Succeeded', first],
    ]);
  });
});
