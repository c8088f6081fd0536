import type { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import { type FarosTrack, type FarosTracker, farosResources } from './farosResources';

export interface FarosObjects {
  /** False when the cluster does not serve Faros' CRDs: nothing to migrate. */
  served: boolean;
  tracks: FarosTrack[];
  trackers: FarosTracker[];
}

const pageSize = 500;

async function listAll<T>(
  client: KubeClient,
  r: { apiVersion: string; plural: string; kind: string },
): Promise<T[]> {
  const out: T[] = [];
  let next: string | undefined;
  do {
    const page = await client.get<{ metadata?: { continue?: string }; items?: T[] }>(resourcePath(r), {
      query: { limit: pageSize, continue: next },
      subject: `list ${r.plural}.faros.pusher.com`,
    });
    for (const item of page.items ?? []) out.push({ ...item, kind: r.kind });
    next = page.metadata?.continue || undefined;
  } while (next);
  return out;
}

/** Every Faros track and tracking object in the cluster, read with the caller's identity. */
export async function readFarosObjects(client: KubeClient, discovery: Discovery): Promise<FarosObjects> {
  const served = (k: keyof typeof farosResources) =>
    discovery.resourceFor(farosResources[k].apiVersion, farosResources[k].kind) !== undefined;
  if (!served('GitTrack') && !served('ClusterGitTrack')) return { served: false, tracks: [], trackers: [] };
  const list = <T>(k: keyof typeof farosResources) =>
    served(k) ? listAll<T>(client, farosResources[k]) : Promise.resolve([] as T[]);
  const [gitTracks, clusterTracks, objects, clusterObjects] = await Promise.all([
    list<FarosTrack>('GitTrack'),
    list<FarosTrack>('ClusterGitTrack'),
    list<FarosTracker>('GitTrackObject'),
    list<FarosTracker>('ClusterGitTrackObject'),
  ]);
  return {
    served: true,
    tracks: [...gitTracks, ...clusterTracks],
    trackers: [...objects, ...clusterObjects],
  };
}
