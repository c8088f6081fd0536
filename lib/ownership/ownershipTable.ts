import { lightkeeperResources } from '../kube/lightkeeperResources';
import { formatRef, type ObjectRef } from '../manifests';
import type { DeploymentConfig } from '../settings/deploymentModes';
import type { DeletionPolicy } from '../track/trackObject';
import { controllerReference, type OwnerReference } from './ownerReference';
import { trackingObjectName } from './trackingObjectName';

/** The track as the table needs it: kind, identity and where it lives. */
export interface TrackOwner {
  kind: 'GitTrack' | 'ClusterGitTrack';
  apiVersion: string;
  name: string;
  uid: string;
  /** The GitTrack's namespace; undefined for a ClusterGitTrack. */
  namespace?: string | undefined;
  /** A ClusterGitTrack's `spec.defaultNamespace`. */
  defaultNamespace?: string | undefined;
  /** The effective `spec.deletionPolicy` (see `effectiveDeletionPolicy`); absent means Delete. */
  deletionPolicy?: DeletionPolicy | undefined;
}

export type TrackerKind = 'GitTrackObject' | 'ClusterGitTrackObject';

export type OwnershipDecision =
  | { verdict: 'ignore'; reason: string }
  | {
      verdict: 'track';
      tracker: TrackerKind;
      /** Tracking object name; for a GitTrackObject, it lives in `namespace`, as its child does. */
      trackerName: string;
      /** The child's namespace (and the GitTrackObject's); undefined for cluster-scoped children. */
      namespace: string | undefined;
      /** The tracking object's controller reference to the track. */
      trackerOwner: OwnerReference;
    };

export const ignoreReasons = {
  clusterScopedForGitTrack: 'a GitTrack cannot manage a cluster-scoped resource',
  otherNamespace: (ns: string) => `namespace ${ns} is not managed by this GitTrack`,
  excludedNamespaced: 'namespaced resources cannot be managed by this ClusterGitTrack',
  noNamespace: 'the manifest has no namespace and the ClusterGitTrack has no defaultNamespace',
} as const;

/**
 * THE ownership table. Every manifest goes through it before anything is written:
 *
 * | track           | cluster-scoped           | namespaced, own namespace | namespaced, other namespace |
 * | ClusterGitTrack | ClusterGitTrackObject    | GitTrackObject there (IncludeNamespaced; ExcludeNamespaced ignores) | same |
 * | GitTrack        | ignored                  | GitTrackObject            | ignored                     |
 *
 * The owner references it hands out come from `controllerReference`, which refuses any shape the
 * garbage collector would treat as dangling.
 */
export function decideOwnership(
  track: TrackOwner,
  config: DeploymentConfig,
  manifest: { ref: ObjectRef; namespaced: boolean },
): OwnershipDecision {
  const ignore = (reason: string): OwnershipDecision => ({ verdict: 'ignore', reason });
  let tracker: TrackerKind;
  let namespace: string | undefined;

  if (track.kind === 'GitTrack') {
    if (!manifest.namespaced) return ignore(ignoreReasons.clusterScopedForGitTrack);
    namespace = manifest.ref.namespace ?? track.namespace;
    if (namespace !== track.namespace) return ignore(ignoreReasons.otherNamespace(namespace as string));
    tracker = 'GitTrackObject';
  } else if (!manifest.namespaced) {
    tracker = 'ClusterGitTrackObject';
    namespace = undefined;
  } else {
    if (config.clusterGitTrackMode === 'ExcludeNamespaced') return ignore(ignoreReasons.excludedNamespaced);
    namespace = manifest.ref.namespace ?? track.defaultNamespace;
    if (!namespace) return ignore(ignoreReasons.noNamespace);
    tracker = 'GitTrackObject';
  }

  const trackerName = trackingObjectName({ ...manifest.ref, namespace });
  const subject = formatRef({ group: 'lightkeeper.dev', kind: tracker, namespace, name: trackerName });
  return {
    verdict: 'track',
    tracker,
    trackerName,
    namespace,
    trackerOwner: controllerReference(track, { namespace, subject }),
  };
}

/** The child's controller reference to its tracking object (same namespace, or both cluster-scoped). */
export function childOwnerReference(
  decision: Extract<OwnershipDecision, { verdict: 'track' }>,
  trackerUid: string,
  childSubject: string,
): OwnerReference {
  const tracker = lightkeeperResources[decision.tracker];
  return controllerReference(
    {
      apiVersion: tracker.apiVersion,
      kind: tracker.kind,
      name: decision.trackerName,
      uid: trackerUid,
      namespace: tracker.namespaced ? decision.namespace : undefined,
    },
    { namespace: decision.namespace, subject: childSubject },
  );
}
