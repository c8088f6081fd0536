import { createHash } from 'node:crypto';
import type { TrackRef } from '../track/trackRef';

/** One Lease object. */
export interface LeaseRef {
  namespace: string;
  name: string;
}

/** A track's lease, and beside it the slot of the one invocation allowed to wait for it. */
export interface LeaseTarget extends LeaseRef {
  waiterName: string;
}

/**
 * The namespace the reconciler owns for its leases, unless `LIGHTKEEPER_LEASE_NAMESPACE` names
 * another (lib/config/leaseSettings.ts).
 */
export const defaultLeaseNamespace = 'lightkeeper-system';

const maxName = 253;

/**
 * Where a track's leases live: every track's in `namespace`, which the reconciler owns, so a tenant
 * with `admin` in its own namespace cannot edit a lease to block or hijack a reconcile. Names never
 * collide: a namespace has no dot, so `gittrack-NS.NAME` reads only one way, the kinds and the waiter
 * slot differ in their prefix, and a name too long for a Lease ends in a hash of the whole name.
 */
export function leaseTarget(track: TrackRef, namespace: string): LeaseTarget {
  if (track.kind === 'GitTrack' && !track.namespace)
    throw new TypeError(`GitTrack ${track.name} has no namespace`);
  const id =
    track.kind === 'GitTrack' ? `gittrack-${track.namespace}.${track.name}` : `clustergittrack-${track.name}`;
  return { namespace, name: fit(`lightkeeper-${id}`), waiterName: fit(`lightkeeper-waiter-${id}`) };
}

function fit(name: string): string {
  if (name.length <= maxName) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 10);
  return `${name.slice(0, maxName - 11).replace(/[.-]+$/, '')}-${hash}`;
}
