import { ConfigError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { fallbackServiceAccount, isServiceAccountName } from '../manifests/serviceAccountName';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { type TrackKind, trackLabel } from '../track/trackRef';
import { serviceAccountUser } from './serviceAccountUser';

/** The track as identity needs it. */
export interface IdentityTrack {
  kind: TrackKind;
  metadata: { name: string; namespace?: string | undefined };
  spec: { serviceAccountName?: string | undefined };
}

/**
 * Who a track's children are read and written as (LISTs, applies, recreates, prunes), and who
 * reads its git credentials Secret.
 */
export type TrackIdentity =
  /** A ClusterGitTrack: only cluster administrators create one, and it acts as the reconciler. */
  | { kind: 'Reconciler' }
  /** A GitTrack: always a service account of its own namespace, never the reconciler. */
  | { kind: 'ServiceAccount'; namespace: string; name: string; user: string };

/**
 * THE identity table, the one place that decides it:
 *
 * | track           | children, prunes, git credentials Secret                                        |
 * | GitTrack        | `system:serviceaccount:<its namespace>:<spec.serviceAccountName ?? default SA>` |
 * | ClusterGitTrack | the reconciler                                                                 |
 *
 * Tracking objects, the track's status, Events and Leases are always written as the reconciler:
 * they are lightkeeper's own bookkeeping, not the tenant's objects.
 */
export function trackIdentity(track: IdentityTrack, config: DeploymentConfig): TrackIdentity {
  if (track.kind === 'ClusterGitTrack') return { kind: 'Reconciler' };
  const { namespace } = track.metadata;
  const subject = trackLabel({ kind: 'GitTrack', namespace, name: track.metadata.name });
  if (!namespace) throw new ConfigError(`${subject}: a GitTrack needs a namespace`, { subject });
  const name = track.spec.serviceAccountName || config.defaultServiceAccount || fallbackServiceAccount;
  if (!isServiceAccountName(name)) {
    throw new ConfigError(`${subject}: spec.serviceAccountName ${name} is not a valid service account name`, {
      subject,
    });
  }
  return { kind: 'ServiceAccount', namespace, name, user: serviceAccountUser(namespace, name) };
}

/** The client that acts as `identity`: the reconciler's own, or the same pool impersonating. */
export const clientAs = (reconciler: KubeClient, identity: TrackIdentity): KubeClient =>
  identity.kind === 'Reconciler' ? reconciler : reconciler.impersonating(identity.user);

/** The client for a track's children and its credentials Secret. */
export const trackClient = (reconciler: KubeClient, track: IdentityTrack, config: DeploymentConfig) =>
  clientAs(reconciler, trackIdentity(track, config));
