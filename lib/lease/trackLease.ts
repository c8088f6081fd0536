import { isConflict, isNotFound } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import type { LeaseTarget } from './leaseTarget';

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
const leasePath = (t: LeaseTarget, name?: string) =>
  resourcePath({ apiVersion, plural: 'leases', namespace: t.namespace, name });

// Lease times are MicroTime: RFC 3339 with exactly six fractional digits.
const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/**
 * A `coordination.k8s.io/v1` Lease held by one invocation. Every write carries the resourceVersion
 * it read, so two contenders never both win. Expiry is judged on wall clocks, which is sound for
 * NTP-synced Lambda hosts and a TTL of tens of seconds.
 */
export class TrackLease {
  /** Set when a renewal found the lease taken over: the holder no longer excludes anyone. */
  lost = false;

  private constructor(
    private readonly client: KubeClient,
    readonly target: LeaseTarget,
    readonly holder: string,
    readonly ttlSeconds: number,
    private resourceVersion: string | undefined,
  ) {}

  /** One attempt: create the lease, or take it over when it is free, ours or expired. */
  static async tryAcquire(
    client: KubeClient,
    target: LeaseTarget,
    holder: string,
    ttlSeconds: number,
  ): Promise<AcquireAttempt> {
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1)
      throw new TypeError('ttlSeconds must be a whole number ≥ 1');
    const now = Date.now();
    const current = await client.find<Lease>(leasePath(target, target.name));
    const spec = current?.spec ?? {};
    const expiresAt =
      Date.parse(spec.renewTime ?? spec.acquireTime ?? '') + (spec.leaseDurationSeconds ?? ttlSeconds) * 1000;
    if (current && spec.holderIdentity && spec.holderIdentity !== holder && !(expiresAt <= now)) {
      return { heldBy: spec.holderIdentity, expiresAt };
    }
    const body: Lease = {
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
    try {
      const written = current
        ? await client.request<Lease>('PUT', leasePath(target, target.name), {
            body: { apiVersion, kind: 'Lease', ...body },
          })
        : await client.request<Lease>('POST', leasePath(target), {
            body: { apiVersion, kind: 'Lease', ...body },
          });
      return {
        acquired: new TrackLease(client, target, holder, ttlSeconds, written.metadata.resourceVersion),
      };
    } catch (e) {
      // Another contender wrote first (409 AlreadyExists on create, 409 Conflict on update).
      if (isConflict(e)) return { heldBy: '(another contender)', expiresAt: now };
      throw e;
    }
  }

  /** Extends the lease; marks it lost (and answers false) when someone else has taken it over. */
  async renew(): Promise<boolean> {
    if (this.lost) return false;
    const now = Date.now();
    try {
      const current = await this.client.get<Lease>(leasePath(this.target, this.target.name));
      if (
        current.spec?.holderIdentity !== this.holder ||
        current.metadata.resourceVersion !== this.resourceVersion
      ) {
        this.lost = true;
        return false;
      }
      const written = await this.client.request<Lease>('PUT', leasePath(this.target, this.target.name), {
        body: { ...current, spec: { ...current.spec, renewTime: microTime(now) } },
      });
      this.resourceVersion = written.metadata.resourceVersion;
      return true;
    } catch (e) {
      if (isConflict(e) || isNotFound(e)) {
        this.lost = true;
        return false;
      }
      throw e;
    }
  }

  /** Deletes the lease if it is still ours, so a waiter can take it at once. */
  async release(): Promise<void> {
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
  }
}
