import { formatTable } from '../format/formatTable';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import { trackUidLabel } from '../manifests/metadataKeys';
import type { TrackWithStatus } from './trackStatus';

interface TrackingObject {
  metadata: { namespace?: string };
  spec: { target: { apiVersion: string; kind: string; name: string }; source: { path: string } };
  status?: { conditions?: Array<{ type: string; status: string }> };
}

/** Every object the tracks manage, read from their tracking objects (which name target and source). */
export async function trackedObjectsTable(client: KubeClient, tracks: TrackWithStatus[]): Promise<string> {
  const rows: string[][] = [];
  for (const track of tracks) {
    for (const kind of ['ClusterGitTrackObject', 'GitTrackObject'] as const) {
      const { items } = await client.get<{ items: TrackingObject[] }>(
        resourcePath(lightkeeperResources[kind]),
        {
          query: { labelSelector: `${trackUidLabel}=${track.metadata.uid}` },
        },
      );
      for (const o of items) {
        rows.push([
          `${track.kind}/${track.metadata.name}`,
          o.spec.target.kind,
          o.metadata.namespace ?? '-',
          o.spec.target.name,
          o.spec.source.path,
          o.status?.conditions?.find((c) => c.type === 'InSync')?.status ?? 'Unknown',
        ]);
      }
    }
  }
  return formatTable(['track', 'kind', 'namespace', 'name', 'source', 'in sync'], rows);
}
