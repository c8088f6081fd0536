import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import type { KubeClient } from '../kube/kubeClient';
import { requestServiceAccountToken } from '../kube/serviceAccountToken';
import { tokenKubeconfig } from '../kube/tokenKubeconfig';
import type { StartLedger } from './startLedger';
import type { StartNames } from './startNames';
import { type WebhookIdentity, webhookRbacFile } from './webhookIdentity';

type RbacObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  roleRef?: { name: string };
  subjects?: Array<{ namespace?: string }>;
};

const rbac = '/apis/rbac.authorization.k8s.io/v1';

/** `webhookRbacFile`'s objects under `names.webhook`'s names, with the collection each is created in. */
export function webhookRbacObjects(names: StartNames): Array<{ collection: string; object: RbacObject }> {
  const w = names.webhook;
  const objects = parseAllDocuments(readFileSync(webhookRbacFile, 'utf8'))
    .map((doc) => doc.toJS() as RbacObject | null)
    .filter((o): o is RbacObject => o !== null);
  return objects.map((o) => {
    switch (o.kind) {
      case 'Namespace':
        return { collection: '/api/v1/namespaces', object: { ...o, metadata: { name: w.namespace } } };
      case 'ServiceAccount':
        return {
          collection: `/api/v1/namespaces/${w.namespace}/serviceaccounts`,
          object: { ...o, metadata: { name: w.serviceAccount, namespace: w.namespace } },
        };
      case 'ClusterRole':
        return { collection: `${rbac}/clusterroles`, object: { ...o, metadata: { name: w.clusterRole } } };
      case 'ClusterRoleBinding':
        return {
          collection: `${rbac}/clusterrolebindings`,
          object: {
            ...o,
            metadata: { name: w.clusterRoleBinding },
            roleRef: { ...(o.roleRef as { name: string }), name: w.clusterRole },
            subjects: (o.subjects ?? []).map((s) => ({ ...s, namespace: w.namespace })),
          },
        };
      default:
        throw new Error(`${webhookRbacFile}: unexpected ${o.kind}`);
    }
  });
}

/**
 * The webhook's read-only identity for `lightkeeper start`: `webhookRbacFile` created under the
 * run's names (never applied over an existing object), a token of its ServiceAccount, and
 * `dir/webhook-kubeconfig` holding that token only.
 */
export async function createStartWebhookIdentity(
  client: KubeClient,
  ledger: StartLedger,
  names: StartNames,
  adminKubeconfig: string,
  dir: string,
): Promise<WebhookIdentity> {
  for (const { collection, object } of webhookRbacObjects(names))
    await ledger.create(client, collection, object);
  const account = { namespace: names.webhook.namespace, name: names.webhook.serviceAccount };
  const { token, expires } = await requestServiceAccountToken(client, account, 24 * 3600);
  const base = new KubeConfig();
  base.loadFromFile(adminKubeconfig);
  const kubeconfig = join(dir, 'webhook-kubeconfig');
  writeFileSync(kubeconfig, tokenKubeconfig(base, account.name, token), { mode: 0o600 });
  return { kubeconfig, user: `system:serviceaccount:${account.namespace}:${account.name}`, expires };
}
