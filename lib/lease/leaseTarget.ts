import { createHash } from 'node:crypto';
import type { TrackRef } from '../reconcile/types';

export interface LeaseTarget {
  namespace: string;
  name: string;
}

const maxName = 253;

/**
 * Where a track's lease lives: a GitTrack's in its own namespace, a ClusterGitTrack's in
 * `clusterNamespace`. The kind is part of the name, so the two never collide in one namespace.
 */
export function leaseTarget(track: TrackRef, clusterNamespace: string): LeaseTarget {
  const namespace = track.kind === 'GitTrack' ? track.namespace : clusterNamespace;
  if (!namespace) throw new TypeError(`GitTrack ${track.name} has no namespace`);
  const name = `lightkeeper-${track.kind.toLowerCase()}-${track.name}`;
  if (name.length <= maxName) return { namespace, name };
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 10);
  return { namespace, name: `${name.slice(0, maxName - 11).replace(/[.-]+$/, '')}-${hash}` };
}
