// The limit of lightkeeper's first apply on this API server: the same objects, one raw server-side
// apply each (no tracking object, no read, no status), at lightkeeper's concurrency. Namespaces
// first, as every engine must, then everything else at once.
import pLimit from 'p-limit';
import { parseAllDocuments } from 'yaml';
import { Discovery } from '../lib/kube/discovery';
import { kubeClientFromFile } from '../lib/kube/loadKubeConfig';
import { resourcePath } from '../lib/kube/paths';

type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };

export async function rawApply(
  kubeconfig: string,
  files: Record<string, string>,
  concurrency: number,
): Promise<{ wallMs: number; requests: number }> {
  const objects = Object.values(files).flatMap((text) =>
    parseAllDocuments(text, { version: '1.1' }).map((d) => d.toJS() as Obj),
  );
  const client = await kubeClientFromFile(kubeconfig, { connections: concurrency });
  try {
    const started = Date.now();
    const discovery = await new Discovery(client).refresh();
    const limit = pLimit(concurrency);
    const apply = (o: Obj) =>
      limit(async () => {
        const resource = discovery.resourceFor(o.apiVersion, o.kind);
        if (!resource) throw new Error(`the API server does not serve ${o.apiVersion} ${o.kind}`);
        const path = resourcePath({
          apiVersion: o.apiVersion,
          plural: resource.plural,
          namespace: resource.namespaced ? o.metadata.namespace : undefined,
          name: o.metadata.name,
        });
        await client.exchange('PATCH', path, {
          body: o,
          contentType: 'application/apply-patch+yaml',
          query: { fieldManager: 'bench-limit', force: true },
        });
      });
    const namespaces = objects.filter((o) => o.kind === 'Namespace');
    await Promise.all(namespaces.map(apply));
    await Promise.all(objects.filter((o) => o.kind !== 'Namespace').map(apply));
    return { wallMs: Date.now() - started, requests: objects.length };
  } finally {
    await client.close();
  }
}
