import { isConflict, isNotFound, LeaseLostError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import { createLeaseNamespace } from './createLeaseNamespace';
import type { LeaseRef } from './leaseTarget';

interface Lease {
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec?: {
    holderIdentity?: string | null;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

export type AcquireAttempt = { acquired: TrackLease } | { heldBy: string; expiresAt: number };

const apiVersion = 'coordination.k8s.io/v1';
const leasePath = (t: LeaseRef, name?: string) =>
  resourcePath({ apiVersion, plural: 'leases', namespace: t.namespace, name });

// Lease times are MicroTime: RFC 3339 with exactly six fractional digits.
const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
const expiry = (spec: NonNullable<Lease['spec']>, ttlSeconds: number) =>
  Date.parse(spec.renewTime ?? spec.acquireTime ?? '') + (spec.leaseDurationSeconds ?? ttlSeconds) * 1000;

/**
 * A `coordination.k8s.io/v1` Lease held by one invocation. Every write carries the resourceVersion
 * it read, so two contenders never both win. Expiry is judged on wall clocks, which is sound for
 * NTP-synced Lambda hosts and a TTL of tens of seconds. Renewals, checks and the release run one
 * at a time, so a check never compares against a resourceVersion a renewal is about to replace.
 */
export class TrackLease {
  /** Set once the lease is known to be no longer ours: the holder no longer excludes anyone. */
  lost = false;
  /** Why `lost` was set, for logs and the reconcile summary. */
  lostReason: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly client: KubeClient,
    readonly target: LeaseRef,
    readonly holder: string,
    readonly ttlSeconds: number,
    private resourceVersion: string | undefined,
  ) {}

  /** One attempt: create the lease, or take it over when it is free, ours or expired. */
  static async tryAcquire(
    client: KubeClient,
    target: LeaseRef,
    holder: string,
    ttlSeconds: number,
  ): Promise<AcquireAttempt> {
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1)
      throw new TypeError('ttlSeconds must be a whole number ≥ 1');
    const now = Date.now();
    const current = await client.find<Lease>(leasePath(target, target.name));
    const spec = current?.spec ?? {};
    const expiresAt = expiry(spec, ttlSeconds);
    if (current && spec.holderIdentity && spec.holderIdentity !== holder && !(expiresAt <= now)) {
      return { heldBy: spec.holderIdentity, expiresAt };
    }
    const body = {
      apiVersion,
      kind: 'Lease',
      metadata: {
        name: target.name,
        namespace: target.namespace,
        resourceVersion: current?.metadata.resourceVersion,
      },
      spec: {
        holderIdentity: holder,
        leaseDurationSeconds: ttlSeconds,
        acquireTime: microTime(now),
        renewTime: microTime(now),
        leaseTransitions: (spec.leaseTransitions ?? 0) + (current && spec.holderIdentity !== holder ? 1 : 0),
      },
    };
    const create = () => client.request<Lease>('POST', leasePath(target), { body });
    try {
      const written = current
        ? await client.request<Lease>('PUT', leasePath(target, target.name), { body })
        : await create().catch(async (e: unknown) => {
            // The lease namespace does not exist yet (the first reconcile of a new installation).
            if (!isNotFound(e)) throw e;
            await createLeaseNamespace(client, target.namespace);
            return create();
          });
      return {
        acquired: new TrackLease(client, target, holder, ttlSeconds, written.metadata.resourceVersion),
      };
    } catch (e) {
      if (!isConflict(e)) throw e;
      // Another contender wrote first (409 AlreadyExists on create, 409 Conflict on update).
      const winner = (await client.find<Lease>(leasePath(target, target.name)))?.spec;
      return {
        heldBy: winner?.holderIdentity ?? '(another contender)',
        expiresAt: winner ? expiry(winner, ttlSeconds) : now,
      };
    }
  }

  /** Extends the lease; marks it lost (and answers false) when someone else has taken it over. */
  renew(): Promise<boolean> {
    return this.serially(async () => {
      // An expired lease still ours may be extended: a contender's takeover and our renewal both
      // carry the resourceVersion they read, so only one of them lands.
      const current = await this.readOwn({ expiredIsLost: false });
      if (!current) return false;
      try {
        const written = await this.client.request<Lease>('PUT', leasePath(this.target, this.target.name), {
          body: { ...current, spec: { ...current.spec, renewTime: microTime(Date.now()) } },
        });
        this.resourceVersion = written.metadata.resourceVersion;
        return true;
      } catch (e) {
        if (!isConflict(e) && !isNotFound(e)) throw e;
        this.lose('was written by another holder during a renewal');
        return false;
      }
    });
  }

  /**
   * Reads the lease (no write): still ours when it names us, carries the resourceVersion we last
   * wrote and has not expired. Anything else marks it lost.
   */
  stillHeld(): Promise<boolean> {
    return this.serially(async () => (await this.readOwn({ expiredIsLost: true })) !== undefined);
  }

  /** Throws a LeaseLostError unless the lease is still held (see `stillHeld`). */
  async assertHeld(): Promise<void> {
    if (await this.stillHeld()) return;
    const { namespace, name } = this.target;
    throw new LeaseLostError(`lease ${namespace}/${name} ${this.lostReason}: stopped before writing more`, {
      subject: `${namespace}/${name}`,
    });
  }

  /** Deletes the lease if it is still ours, so a waiter can take it at once. */
  release(): Promise<void> {
    return this.serially(async () => {
      if (this.lost) return;
      try {
        await this.client.request('DELETE', leasePath(this.target, this.target.name), {
          body: {
            apiVersion: 'v1',
            kind: 'DeleteOptions',
            preconditions: { resourceVersion: this.resourceVersion },
          },
        });
      } catch (e) {
        if (!isConflict(e) && !isNotFound(e)) throw e;
      }
      this.lost = true;
      this.lostReason = 'was released';
    });
  }

  /** The lease as last written by us, or undefined (and marked lost) when it is no longer ours. */
  private async readOwn(options: { expiredIsLost: boolean }): Promise<Lease | undefined> {
    if (this.lost) return undefined;
    const current = await this.client.find<Lease>(leasePath(this.target, this.target.name));
    if (!current) return this.lose('was deleted');
    const holder = current.spec?.holderIdentity;
    if (holder !== this.holder) return this.lose(`was taken over by ${holder ?? '(nobody)'}`);
    if (current.metadata.resourceVersion !== this.resourceVersion)
      return this.lose('was written by another holder');
    const expiresAt = expiry(current.spec ?? {}, this.ttlSeconds);
    if (options.expiredIsLost && !(expiresAt > Date.now()))
      return this.lose(`expired at ${new Date(expiresAt).toISOString()}`);
    return current;
  }

  private lose(reason: string): undefined {
    this.lost = true;
    this.lostReason = reason;
    return undefined;
  }

  private serially<T>(op: () => Promise<T>): Promise<T> {
    const next = this.queue.then(op, op);
    this.queue = next.catch(() => {});
    return next;
  }
}
