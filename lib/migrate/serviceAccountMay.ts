import { serviceAccountUser } from '../identity/serviceAccountUser';
import type { KubeClient } from '../kube/kubeClient';

export interface AccessAttributes {
  verb: string;
  group: string;
  resource: string;
  namespace?: string | undefined;
  name?: string | undefined;
}

/**
 * Whether a service account may do something, asked of the API server by the operator (a
 * SubjectAccessReview: RBAC and every other authorizer answer as they would for the request), so
 * no impersonation right is needed. The account's groups are the ones the server gives it.
 */
export async function serviceAccountMay(
  client: KubeClient,
  account: { namespace: string; name: string },
  attributes: AccessAttributes,
): Promise<boolean> {
  const review = await client.request<{ status?: { allowed?: boolean } }>(
    'POST',
    '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    {
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: serviceAccountUser(account.namespace, account.name),
          groups: [
            'system:serviceaccounts',
            `system:serviceaccounts:${account.namespace}`,
            'system:authenticated',
          ],
          resourceAttributes: attributes,
        },
      },
      subject: `SubjectAccessReview: may ${account.namespace}/${account.name} ${attributes.verb} ${attributes.resource}`,
    },
  );
  return review.status?.allowed === true;
}
