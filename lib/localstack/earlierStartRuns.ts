import type { KubeClient } from '../kube/kubeClient';
import { startRunLabel } from '../manifests/metadataKeys';

type Labelled = { items: Array<{ metadata: { labels?: Record<string, string> } }> };

/**
 * The run ids of earlier `lightkeeper start` runs that left tracks or namespaces behind (a run that
 * was killed cannot clean up). Reported, never removed: they may hold what a user put there since.
 */
export async function earlierStartRuns(client: KubeClient): Promise<string[]> {
  const query = { labelSelector: startRunLabel };
  const lists = await Promise.all(
    [
      '/apis/lightkeeper.dev/v1alpha1/clustergittracks',
      '/apis/lightkeeper.dev/v1alpha1/gittracks',
      '/api/v1/namespaces',
    ].map((path) => client.find<Labelled>(path, { query })),
  );
  const ids = lists.flatMap((l) => l?.items ?? []).map((o) => o.metadata.labels?.[startRunLabel] ?? '');
  return [...new Set(ids)].filter(Boolean).sort();
}
