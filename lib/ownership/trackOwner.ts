import type { TrackObject } from '../track/trackObject';
import { effectiveDeletionPolicy } from './childOwnership';
import type { TrackOwner } from './ownershipTable';

/** The track as the owner of its tracking objects and children (lib/ownership/ownershipTable.ts). */
export function trackOwner(track: TrackObject): TrackOwner {
  return {
    kind: track.kind,
    apiVersion: track.apiVersion,
    name: track.metadata.name,
    uid: track.metadata.uid,
    namespace: track.kind === 'GitTrack' ? track.metadata.namespace : undefined,
    // A ClusterGitTrack's chart renders into its helm.targetNamespace: objects naming none go there.
    defaultNamespace: track.spec.helm?.targetNamespace ?? track.spec.defaultNamespace,
    deletionPolicy: effectiveDeletionPolicy(track.spec),
  };
}
