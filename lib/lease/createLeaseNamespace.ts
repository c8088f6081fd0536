import { isConflict } from '../errors';
import type { KubeClient } from '../kube/kubeClient';

/** Creates the reconciler's lease namespace; one that already exists is fine. */
export async function createLeaseNamespace(client: KubeClient, namespace: string): Promise<void> {
  try {
    await client.request('POST', '/api/v1/namespaces', {
      body: {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: namespace, labels: { 'app.kubernetes.io/managed-by': 'lightkeeper' } },
      },
    });
  } catch (e) {
    if (!isConflict(e)) throw e;
  }
}
