import type { KubeClient } from '../kube/kubeClient';
import { acquireTrackLease, type LeaseOptions } from './acquireTrackLease';
import { type Coalesced, isCoalesced } from './coalesced';
import { keepRenewing } from './keepRenewing';
import type { LeaseTarget } from './leaseTarget';
import type { TrackLease } from './trackLease';

export type { LeaseOptions } from './acquireTrackLease';

/**
 * Waits for the lease, then holds it (renewing) while `run` runs, and releases it afterwards.
 * With `coalesce`, answers `coalesced` without running when another invocation already waits.
 */
export function withTrackLease<T>(
  client: KubeClient,
  target: LeaseTarget,
  options: LeaseOptions & { coalesce?: false },
  run: (lease: TrackLease) => Promise<T>,
): Promise<T>;
export function withTrackLease<T>(
  client: KubeClient,
  target: LeaseTarget,
  options: LeaseOptions,
  run: (lease: TrackLease) => Promise<T>,
): Promise<T | Coalesced>;
export async function withTrackLease<T>(
  client: KubeClient,
  target: LeaseTarget,
  options: LeaseOptions,
  run: (lease: TrackLease) => Promise<T>,
): Promise<T | Coalesced> {
  const lease = await acquireTrackLease(client, target, options);
  if (isCoalesced(lease)) return lease;
  const stop = keepRenewing(lease, ((options.ttlSeconds ?? 60) * 1000) / 3, options.onRenewalProblem);
  try {
    return await run(lease);
  } finally {
    await stop();
    await lease.release();
  }
}
