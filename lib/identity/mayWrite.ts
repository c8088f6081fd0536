import type { KubeClient } from '../kube/kubeClient';
import { type AccessTarget, describeTarget, selfAccessReview } from './accessReview';
import type { DeleteVerdict } from './mayDelete';
import type { TrackIdentity } from './trackIdentity';

/**
 * Whether `identity` may server-side apply the child: a PATCH, so `patch` (one that creates the
 * object needs `create` too, which the apply itself then answers). Asked before a GitTrack gets a
 * tracking object for the child, so a tenant's manifest for an object it may not write leaves no
 * tracking object — which would otherwise hold the name against a track that may (the platform's).
 * A ClusterGitTrack acts as the reconciler: nothing is asked.
 */
export async function mayWrite(
  client: KubeClient,
  identity: TrackIdentity,
  target: AccessTarget,
): Promise<DeleteVerdict> {
  if (identity.kind === 'Reconciler') return { allowed: true };
  if (await selfAccessReview(client, identity.user, 'patch', target)) return { allowed: true };
  return {
    allowed: false,
    message: `ServiceAccount ${identity.namespace}/${identity.name} may not patch (apply) ${describeTarget(target)}; nothing of it was applied or tracked`,
  };
}
