import { isConflict } from '../../lib/errors';
import type { KubeClient } from '../../lib/kube/kubeClient';

const rbac = (namespace: string) => `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}`;

/**
 * Grants a service account of `namespace` a role there, as a cluster administrator onboarding a
 * tenant does: a RoleBinding to a built-in ClusterRole (`admin`, `edit`, `view`) or to a Role.
 * Binding twice is fine.
 */
export async function grant(
  client: KubeClient,
  namespace: string,
  role: { clusterRole: string } | { role: string },
  serviceAccount = 'default',
): Promise<void> {
  const [kind, name] = 'clusterRole' in role ? ['ClusterRole', role.clusterRole] : ['Role', role.role];
  try {
    await client.request('POST', `${rbac(namespace)}/rolebindings`, {
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: `${serviceAccount}-${kind.toLowerCase()}-${name}` },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name },
        subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace }],
      },
    });
  } catch (e) {
    if (!isConflict(e)) throw e;
  }
}

/** A Role in `namespace` with exactly these rules. */
export async function createRole(
  client: KubeClient,
  namespace: string,
  name: string,
  rules: Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }>,
): Promise<void> {
  await client.request('POST', `${rbac(namespace)}/roles`, {
    body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules },
  });
}
