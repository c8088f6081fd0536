import { setTimeout as sleep } from 'node:timers/promises';
import { LeaseTimeoutError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { defaultLeaseTtlSeconds } from '../settings/defaults';
import type { Coalesced } from './coalesced';
import { keepRenewing } from './keepRenewing';
import type { LeaseTarget } from './leaseTarget';
import { TrackLease } from './trackLease';

/** How long a lease outlives its last renewal unless LIGHTKEEPER_LEASE_TTL_SECONDS says otherwise. */

export interface LeaseOptions {
  /** Unique per invocation (e.g. the Lambda request id, or `cli/<host>/<pid>/<random>`). */
  holder: string;
  /** How long the lease outlives its last renewal. Default 60 s; renewed every third of it. */
  ttlSeconds?: number;
  /** Poll interval while another invocation holds the lease. Default 1 s. */
  pollMs?: number;
  /** Stop waiting at this time (epoch ms) with a LeaseTimeoutError. */
  waitUntil: number;
  /** Called when this invocation starts waiting, and again whenever the holder it waits for changes. */
  onWait?: (heldBy: string) => void;
  /** Called when a renewal fails or finds the lease taken over. */
  onRenewalProblem?: (problem: unknown) => void;
  /**
   * Wait only as the track's single waiter: when the track is running and another live invocation
   * already waits, answer `coalesced` at once. Only for requests that any later reconcile of the
   * head satisfies; a pinned commit is a different request and must not set this.
   */
  coalesce?: boolean;
  /** Lifetime of the waiter's slot, heartbeated every third of it while waiting. Default 15 s. */
  waiterTtlSeconds?: number;
}

/**
 * Waits until the track's lease is ours. With `coalesce`, the first invocation to find the track
 * running claims the waiter slot (a Lease of its own, so the holder's renewals never see it) and
 * gives it up only once it holds the track's lease, before anything is fetched: whoever finds the
 * slot claimed can rely on a reconcile of the head that starts later than its own arrival.
 */
export async function acquireTrackLease(
  client: KubeClient,
  target: LeaseTarget,
  options: LeaseOptions,
): Promise<TrackLease | Coalesced> {
  const ttlSeconds = options.ttlSeconds ?? defaultLeaseTtlSeconds;
  const waiterTtlSeconds = options.waiterTtlSeconds ?? 15;
  let slot: TrackLease | undefined;
  let stopHeartbeat: (() => Promise<void>) | undefined;
  let waitingFor: string | undefined;
  try {
    for (;;) {
      const attempt = await TrackLease.tryAcquire(client, target, options.holder, ttlSeconds);
      if ('acquired' in attempt) return attempt.acquired;
      if (options.coalesce && !slot) {
        const waiterRef = { namespace: target.namespace, name: target.waiterName };
        const claim = await TrackLease.tryAcquire(client, waiterRef, options.holder, waiterTtlSeconds);
        if (!('acquired' in claim))
          return { outcome: 'coalesced', heldBy: attempt.heldBy, waiter: claim.heldBy };
        slot = claim.acquired;
        stopHeartbeat = keepRenewing(slot, (waiterTtlSeconds * 1000) / 3);
      }
      if (attempt.heldBy !== waitingFor) options.onWait?.(attempt.heldBy);
      waitingFor = attempt.heldBy;
      const pause = options.pollMs ?? 1000;
      if (Date.now() + pause > options.waitUntil) {
        throw new LeaseTimeoutError(
          `lease ${target.namespace}/${target.name} is still held by ${attempt.heldBy}`,
          { subject: `${target.namespace}/${target.name}` },
        );
      }
      await sleep(pause);
    }
  } finally {
    await stopHeartbeat?.();
    await slot?.release();
  }
}
