import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeClient } from '../kube/kubeClient';
import type { StartLedger } from './startLedger';
import type { StartNames, TrackReaderName } from './startNames';
import { sweepReader } from './sweepIdentity';
import { type TrackReaderIdentity, writeServiceAccountKubeconfig } from './trackReaderIdentity';
import { webhookRbacFile } from './webhookIdentity';

type RbacObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  roleRef?: { name: string };
  subjects?: Array<{ namespace?: string }>;
};

const rbac = '/apis/rbac.authorization.k8s.io/v1';
const rbacFiles: Record<TrackReaderName, string> = { webhook: webhookRbacFile, sweep: sweepReader.rbacFile };

/**
 * A reader's RBAC file (infra/rbac/webhook.yaml or sweep.yaml) under the run's names, with the
 * collection each object is created in; the namespace the file names is left out (created once).
 */
export function readerRbacObjects(
  names: StartNames,
  which: TrackReaderName,
): Array<{ collection: string; object: RbacObject }> {
  const file = rbacFiles[which];
  const r = names.readers[which];
  const ns = names.systemNamespace;
  const objects = parseAllDocuments(readFileSync(file, 'utf8'))
    .map((doc) => doc.toJS() as RbacObject | null)
    .filter((o): o is RbacObject => o !== null && o.kind !== 'Namespace');
  return objects.map((o) => {
    switch (o.kind) {
      case 'ServiceAccount':
        return {
          collection: `/api/v1/namespaces/${ns}/serviceaccounts`,
          object: { ...o, metadata: { name: r.serviceAccount, namespace: ns } },
        };
      case 'ClusterRole':
        return { collection: `${rbac}/clusterroles`, object: { ...o, metadata: { name: r.clusterRole } } };
      case 'ClusterRoleBinding':
        return {
          collection: `${rbac}/clusterrolebindings`,
          object: {
            ...o,
            metadata: { name: r.clusterRoleBinding },
            roleRef: { ...(o.roleRef as { name: string }), name: r.clusterRole },
            subjects: (o.subjects ?? []).map((s) => ({ ...s, namespace: ns })),
          },
        };
      default:
        throw new Error(`${file}: unexpected ${o.kind}`);
    }
  });
}

/**
 * The webhook's and the sweep's read-only identities for `lightkeeper start`: their RBAC files
 * created under the run's names (never applied over an existing object), a token of each
 * ServiceAccount, and `dir/<reader>-kubeconfig` holding that token only.
 */
export async function createStartReaderIdentities(
  client: KubeClient,
  ledger: StartLedger,
  names: StartNames,
  adminKubeconfig: string,
  dir: string,
): Promise<Record<TrackReaderName, TrackReaderIdentity>> {
  const ns = names.systemNamespace;
  await ledger.create(client, '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  mkdirSync(dir, { recursive: true });
  const identities = {} as Record<TrackReaderName, TrackReaderIdentity>;
  for (const which of ['webhook', 'sweep'] as const) {
    for (const { collection, object } of readerRbacObjects(names, which))
      await ledger.create(client, collection, object);
    const account = { namespace: ns, name: names.readers[which].serviceAccount };
    const path = join(dir, `${which}-kubeconfig`);
    identities[which] = await writeServiceAccountKubeconfig(client, account, adminKubeconfig, path);
  }
  return identities;
}
