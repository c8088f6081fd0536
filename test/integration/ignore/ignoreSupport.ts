import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { fieldManager } from '../../../lib/kube/serverSideApply';
import { eventually } from '../../support/cluster';

export const deployments = { apiVersion: 'apps/v1', plural: 'deployments' };

/** A Deployment as a manifest writes it; `extra` is merged into metadata. */
export const deployment = (
  name: string,
  replicas: number,
  metadata: Record<string, unknown> = {},
  namespace?: string,
) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, ...(namespace ? { namespace } : {}), labels: { app: name }, ...metadata },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] },
    },
  },
});

/** What an HPA does: write spec.replicas through the scale subresource, as a manager of its own. */
export const scale = (client: KubeClient, namespace: string, name: string, replicas: number) =>
  client.request('PATCH', resourcePath({ ...deployments, namespace, name, subresource: 'scale' }), {
    body: { spec: { replicas } },
    contentType: 'application/merge-patch+json',
    query: { fieldManager: 'hpa-like' },
  });

interface LiveDeployment {
  spec: { replicas: number };
  metadata: {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    managedFields: Array<{
      manager: string;
      operation: string;
      subresource?: string;
      fieldsV1?: { 'f:spec'?: { 'f:replicas'?: object } };
    }>;
  };
}

export const readDeployment = (client: KubeClient, namespace: string, name: string) =>
  client.get<LiveDeployment>(resourcePath({ ...deployments, namespace, name }));

/** Which managers the API server says own spec.replicas (`manager` or `manager/subresource`). */
export async function replicasOwners(client: KubeClient, namespace: string, name: string): Promise<string[]> {
  const live = await readDeployment(client, namespace, name);
  return live.metadata.managedFields
    .filter((e) => e.fieldsV1?.['f:spec']?.['f:replicas'] !== undefined)
    .map((e) => (e.subresource ? `${e.manager}/${e.subresource}` : e.manager))
    .sort();
}

export const lightkeeper = fieldManager;

/**
 * Waits until the deployment controller (on in the local control plane) has caught up with each
 * Deployment: generation observed and its pods created. Its status writes change resourceVersions,
 * so measuring requests before it settles would count its conflicts and health changes.
 */
export async function settled(client: KubeClient, namespace: string, names: readonly string[]) {
  await eventually(`deployments in ${namespace} settled`, async () => {
    for (const name of names) {
      const d = await client.get<{
        metadata: { generation: number };
        spec: { replicas: number };
        status?: { observedGeneration?: number; replicas?: number };
      }>(resourcePath({ ...deployments, namespace, name }));
      if (d.status?.observedGeneration !== d.metadata.generation) return false;
      if ((d.status?.replicas ?? 0) !== d.spec.replicas) return false;
    }
    return true;
  });
}
