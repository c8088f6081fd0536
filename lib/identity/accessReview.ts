import type { KubeClient } from '../kube/kubeClient';

/** An object as RBAC names it. */
export interface AccessTarget {
  group: string;
  kind: string;
  /** The resource's plural, as RBAC names it. */
  plural: string;
  namespace?: string | undefined;
  name: string;
}

interface AccessReviewStatus {
  status?: { allowed?: boolean };
}

export const describeTarget = (target: AccessTarget) =>
  `${target.group ? `${target.kind}.${target.group}` : target.kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}`;

/**
 * Whether the identity `client` acts as may `verb` the target, as the API server answers a
 * SelfSubjectAccessReview: RBAC and any other authorizer decide exactly as for the request itself.
 * Nothing is cached: rights change.
 */
export async function selfAccessReview(
  client: KubeClient,
  user: string,
  verb: string,
  target: AccessTarget,
): Promise<boolean> {
  const review = await client.request<AccessReviewStatus>(
    'POST',
    '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    {
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: {
          resourceAttributes: {
            verb,
            group: target.group,
            resource: target.plural,
            namespace: target.namespace,
            name: target.name,
          },
        },
      },
      subject: `SelfSubjectAccessReview: may ${user} ${verb} ${describeTarget(target)}`,
    },
  );
  return review.status?.allowed === true;
}
