import { isConflict } from '../../lib/errors';
import type { KubeClient } from '../../lib/kube/kubeClient';
import { serviceAccountMay } from '../../lib/migrate/serviceAccountMay';
import { eventually } from './cluster';

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
}

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
  await untilAuthorized(
    client,
    namespace,
    kind === 'Role'
      ? `${rbac(namespace)}/roles/${name}`
      : `/apis/rbac.authorization.k8s.io/v1/clusterroles/${name}`,
    serviceAccount,
  );
}

/**
 * The authorizer learns of a new binding (and the aggregation controller fills `admin`/`edit`)
 * through informers, a moment later: wait until the account is allowed what the role's first rule
 * grants, so a test does not race the API server's caches.
 */
async function untilAuthorized(
  client: KubeClient,
  namespace: string,
  rolePath: string,
  serviceAccount: string,
) {
  await eventually(
    `${serviceAccount} in ${namespace} holds ${rolePath}`,
    async () => {
      const role = await client.get<{ rules?: Rule[] }>(rolePath);
      const rule = role.rules?.find((r) => r.resources?.[0] && r.verbs?.[0] && r.resources[0] !== '*');
      if (!rule) return false;
      return serviceAccountMay(
        client,
        { namespace, name: serviceAccount },
        {
          namespace,
          group: rule.apiGroups?.[0] ?? '',
          resource: rule.resources?.[0] as string,
          verb: (rule.verbs?.[0] === '*' ? 'get' : rule.verbs?.[0]) as string,
        },
      );
    },
    20_000,
  );
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
