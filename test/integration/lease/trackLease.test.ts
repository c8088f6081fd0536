import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeaseTimeoutError } from '../../../lib/errors';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { leaseTarget } from '../../../lib/lease/leaseTarget';
import { TrackLease } from '../../../lib/lease/trackLease';
import { withTrackLease } from '../../../lib/lease/withTrackLease';
import { eventually, freshNamespace, kubeClient } from '../../support/cluster';

let client: KubeClient;
let namespace: string;

beforeAll(async () => {
  client = await kubeClient();
  namespace = await freshNamespace(client, 'lease');
});

afterAll(async () => {
  await client?.request('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => {});
  await client?.close();
});

const leasePath = (name: string) => `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${name}`;
const holderOf = async (name: string) =>
  (await client.find<{ spec: { holderIdentity?: string } }>(leasePath(name)))?.spec.holderIdentity;

describe('withTrackLease', () => {
  it('never lets two holders of one track overlap, and lets every waiter run', async () => {
    const target = leaseTarget({ kind: 'GitTrack', namespace, name: 'app' }, namespace);
    const spans: Array<{ holder: string; start: number; end: number }> = [];
    const holders = ['a', 'b', 'c', 'd'];
    await Promise.all(
      holders.map((holder) =>
        withTrackLease(client, target, { holder, pollMs: 50, waitUntil: Date.now() + 60_000 }, async () => {
          const start = performance.now();
          // The work done under the lease: it must last long enough for the others to queue behind it.
          await sleep(300);
          spans.push({ holder, start, end: performance.now() });
        }),
      ),
    );
    expect(spans.map((s) => s.holder).sort()).toEqual(holders);
    spans.sort((x, y) => x.start - y.start);
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
    expect(await client.find(leasePath(target.name))).toBeUndefined();
  });

  it('takes over an expired lease of a crashed holder', async () => {
    const target = leaseTarget({ kind: 'ClusterGitTrack', name: 'crashed' }, namespace);
    const long = new Date(Date.now() - 120_000).toISOString().replace('Z', '000Z');
    await client.request('POST', `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`, {
      body: {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: target.name },
        spec: { holderIdentity: 'crashed', leaseDurationSeconds: 10, acquireTime: long, renewTime: long },
      },
    });
    const attempt = await TrackLease.tryAcquire(client, target, 'next', 30);
    expect('acquired' in attempt).toBe(true);
    const lease = await client.get<{ spec: Record<string, unknown> }>(leasePath(target.name));
    expect(lease.spec).toMatchObject({
      holderIdentity: 'next',
      leaseDurationSeconds: 30,
      leaseTransitions: 1,
    });
    if ('acquired' in attempt) await attempt.acquired.release();
  });

  it('keeps a live lease renewed, so a waiter times out instead of taking it over', async () => {
    const target = leaseTarget({ kind: 'GitTrack', namespace, name: 'slow' }, namespace);
    let renewed = false;
    let waiterGaveUp = () => {};
    const gaveUp = new Promise<void>((resolve) => {
      waiterGaveUp = resolve;
    });
    const holding = withTrackLease(
      client,
      target,
      { holder: 'slow', ttlSeconds: 2, waitUntil: Date.now() + 10_000 },
      async (lease) => {
        const before = await client.get<{ metadata: { resourceVersion: string } }>(leasePath(target.name));
        // Held until the waiter gives up, 2.5 s after it started: longer than the 2 s TTL.
        await gaveUp;
        const after = await client.get<{ metadata: { resourceVersion: string } }>(leasePath(target.name));
        renewed = after.metadata.resourceVersion !== before.metadata.resourceVersion;
        return lease.lost;
      },
    );
    try {
      await eventually('slow holds the lease', async () => (await holderOf(target.name)) === 'slow', 10_000);
      const waiting = withTrackLease(
        client,
        target,
        { holder: 'impatient', pollMs: 100, waitUntil: Date.now() + 2_500 },
        async () => 'ran',
      );
      await expect(waiting).rejects.toBeInstanceOf(LeaseTimeoutError);
    } finally {
      waiterGaveUp();
    }
    expect(await holding).toBe(false);
    expect(renewed).toBe(true);
  });
});
