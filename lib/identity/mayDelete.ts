import type { KubeClient } from '../kube/kubeClient';
import { pruneAnnotation } from '../manifests/metadataKeys';
import { type AccessTarget, describeTarget, selfAccessReview } from './accessReview';
import type { TrackIdentity } from './trackIdentity';

/** The object a child's owner reference would hand to the garbage collector. */
export type DeleteTarget = AccessTarget;

export type DeleteVerdict = { allowed: true } | { allowed: false; message: string };

/**
 * Whether `identity` could delete `target` itself. A child controlled by its tracking object is
 * deleted by the garbage collector, with the collector's rights, when its track or tracking object
 * goes; so a GitTrack gives that reference only to an object its own identity may delete, or it
 * would delete through the collector what it could only patch or create. The API server answers,
 * as the identity (`client` impersonates it). A ClusterGitTrack acts as the reconciler, whose
 * deletions need no second opinion: nothing is asked.
 */
export async function mayDelete(
  client: KubeClient,
  identity: TrackIdentity,
  target: DeleteTarget,
): Promise<DeleteVerdict> {
  if (identity.kind === 'Reconciler') return { allowed: true };
  if (await selfAccessReview(client, identity.user, 'delete', target)) return { allowed: true };
  return {
    allowed: false,
    message:
      `ServiceAccount ${identity.namespace}/${identity.name} may not delete ${describeTarget(target)}; ` +
      'a GitTrack manages only objects its identity could delete itself ' +
      `(grant delete, or annotate ${pruneAnnotation}: disabled to apply it without an owner reference)`,
  };
}
