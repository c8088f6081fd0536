import { isKubeApiError } from '../errors';
import type { ApiResource } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import type { ScannedObject } from './classifyOwnerReferences';

const metadataOnly = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const pageSize = 500;

interface MetadataList {
  metadata?: { continue?: string };
  items?: Array<{ metadata: Omit<ScannedObject, 'apiVersion' | 'kind' | 'namespaced'> }>;
}

const apiVersionOf = (r: ApiResource) => (r.group ? `${r.group}/${r.version}` : r.version);

/** Every object of one type, cluster-wide, metadata only, one page at a time. */
export async function scanResource(client: KubeClient, resource: ApiResource): Promise<ScannedObject[]> {
  const apiVersion = apiVersionOf(resource);
  const path = resourcePath({ apiVersion, plural: resource.plural });
  const out: ScannedObject[] = [];
  let next: string | undefined;
  do {
    const page = await client.get<MetadataList>(path, {
      accept: metadataOnly,
      query: { limit: pageSize, continue: next },
      subject: `list ${resource.plural}${resource.group ? `.${resource.group}` : ''}`,
    });
    for (const item of page.items ?? [])
      out.push({
        apiVersion,
        kind: resource.kind,
        namespaced: resource.namespaced,
        namespace: item.metadata.namespace,
        name: item.metadata.name,
        uid: item.metadata.uid,
        ownerReferences: item.metadata.ownerReferences,
      });
    next = page.metadata?.continue || undefined;
  } while (next);
  return out;
}

/**
 * Every object of every listable type. A type that vanished or cannot be listed after all (404,
 * 405) is returned in `skipped`; any other failure ends the scan, since a partial index would make
 * live owners look absent.
 */
export async function scanObjects(
  client: KubeClient,
  resources: readonly ApiResource[],
  onProgress?: (done: number, total: number) => void,
): Promise<{ objects: ScannedObject[]; skipped: string[] }> {
  const objects: ScannedObject[] = [];
  const skipped: string[] = [];
  onProgress?.(0, resources.length);
  for (const [i, resource] of resources.entries()) {
    try {
      objects.push(...(await scanResource(client, resource)));
    } catch (e) {
      if (!(isKubeApiError(e) && (e.status === 404 || e.status === 405))) throw e;
      skipped.push(`${resource.plural}${resource.group ? `.${resource.group}` : ''}`);
    }
    onProgress?.(i + 1, resources.length);
  }
  return { objects, skipped };
}
