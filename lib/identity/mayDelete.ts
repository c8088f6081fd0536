import { pruneAnnotation } from '../apply/metadataKeys';
import type { KubeClient } from '../kube/kubeClient';
import type { TrackIdentity } from './trackIdentity';

/** The object a child's owner reference would hand to the garbage collector. */
export interface DeleteTarget {
  group: string;
  kind: string;
  /** The resource's plural, as RBAC names it. */
  plural: string;
  namespace?: string | undefined;
  name: string;
}

export type DeleteVerdict = { allowed: true } | { allowed: false; message: string };

interface AccessReviewStatus {
  status?: { allowed?: boolean; reason?: string; evaluationError?: string };
}

/**
 * Whether `identity` could delete `target` itself. A child controlled by its tracking object is
 * deleted by the garbage collector, with the collector's rights, when its track or tracking object
 * goes; so a GitTrack gives that reference only to an object its own identity may delete, or it
 * would delete through the collector what it could only patch or create. The API server answers,
 * as the identity (`client` impersonates it), with a SelfSubjectAccessReview: RBAC and any other
 * authorizer decide exactly as they would for the DELETE. A ClusterGitTrack acts as the reconciler,
 * whose deletions need no second opinion: nothing is asked. Nothing is cached: rights change.
 */
export async function mayDelete(
  client: KubeClient,
  identity: TrackIdentity,
  target: DeleteTarget,
): Promise<DeleteVerdict> {
  if (identity.kind === 'Reconciler') return { allowed: true };
  const kind = target.group ? `${target.kind}.${target.group}` : target.kind;
  const object = target.namespace ? `${target.namespace}/${target.name}` : target.name;
  const review = await client.request<AccessReviewStatus>(
    'POST',
    '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    {
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: {
          resourceAttributes: {
            verb: 'delete',
            group: target.group,
            resource: target.plural,
            namespace: target.namespace,
            name: target.name,
          },
        },
      },
      subject: `SelfSubjectAccessReview: may ${identity.user} delete ${kind} ${object}`,
    },
  );
  if (review.status?.allowed === true) return { allowed: true };
  return {
    allowed: false,
    message:
      `ServiceAccount ${identity.namespace}/${identity.name} may not delete ${kind} ${object}; ` +
      'a GitTrack manages only objects its identity could delete itself ' +
      `(grant delete, or annotate ${pruneAnnotation}: disabled to apply it without an owner reference)`,
  };
}
