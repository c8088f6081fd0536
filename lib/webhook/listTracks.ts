import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import { requestedAtAnnotation } from '../manifests/metadataKeys';
import { readFetchBackoff } from '../reconcile/fetchBackoff';
import type { DeploymentConfig } from '../settings/deploymentModes';
import type { ListedTrack } from '../track/listedTrack';
import type { TrackKind } from '../track/trackRef';

interface TrackList {
  metadata?: { continue?: string };
  items: Array<{
    metadata: { name: string; namespace?: string; generation?: number; annotations?: Record<string, string> };
    spec?: Partial<ListedTrack['spec']>;
    status?: {
      observedGeneration?: number;
      lastAppliedCommit?: string;
      recentDeliveries?: string[];
      fetchBackoff?: unknown;
      lastHandledRequestedAt?: string;
    };
  }>;
}

const pageSize = 500;

/**
 * Every GitTrack and ClusterGitTrack this deployment may reconcile, read from the API server:
 * GitTracks when enabled (in `config.namespace` only, when set), ClusterGitTracks unless disabled.
 */
export async function listTracks(client: KubeClient, config: DeploymentConfig): Promise<ListedTrack[]> {
  const lists: Array<Promise<ListedTrack[]>> = [];
  if (config.gitTrackMode === 'Enabled') lists.push(listKind(client, 'GitTrack', config.namespace));
  if (config.clusterGitTrackMode !== 'Disabled') lists.push(listKind(client, 'ClusterGitTrack', undefined));
  return (await Promise.all(lists)).flat();
}

async function listKind(
  client: KubeClient,
  kind: TrackKind,
  namespace: string | undefined,
): Promise<ListedTrack[]> {
  const resource = lightkeeperResources[kind];
  const path = resourcePath({ ...resource, namespace });
  const tracks: ListedTrack[] = [];
  let next: string | undefined;
  do {
    const page: TrackList = await client.get(path, { query: { limit: pageSize, continue: next } });
    for (const item of page.items) {
      const { repository, reference, subPath, suspend } = item.spec ?? {};
      if (typeof repository !== 'string' || typeof reference !== 'string') continue;
      tracks.push({
        ref: {
          kind,
          namespace: resource.namespaced ? item.metadata.namespace : undefined,
          name: item.metadata.name,
        },
        spec: { repository, reference, subPath, suspend },
        generation: item.metadata.generation,
        observedGeneration: item.status?.observedGeneration,
        lastAppliedCommit: item.status?.lastAppliedCommit,
        recentDeliveries: item.status?.recentDeliveries,
        fetchBackoff: readFetchBackoff(item.status),
        requestedAt: item.metadata.annotations?.[requestedAtAnnotation],
        lastHandledRequestedAt: item.status?.lastHandledRequestedAt,
      });
    }
    next = page.metadata?.continue || undefined;
  } while (next);
  return tracks;
}
