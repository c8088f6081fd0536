import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import { trackUidLabel } from '../manifests/metadataKeys';
import type { TrackerKind, TrackOwner } from '../ownership/ownershipTable';

export interface LiveTracker {
  kind: TrackerKind;
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    /** Set while a pruned tracking object waits for the garbage collector to orphan its dependents. */
    deletionTimestamp?: string;
    ownerReferences?: Array<{ uid: string; kind: string; name: string; controller?: boolean }>;
  };
  spec: {
    target: { apiVersion: string; kind: string; name: string };
    source: { path: string; commit: string };
    digest: string;
    updateStrategy?: string;
  };
  status?: {
    lastAppliedDigest?: string;
    lastAppliedCommit?: string;
    lastAppliedFieldsDigest?: string;
    conditions?: Array<{ type: string; status: string; lastTransitionTime?: string }>;
  };
}

export const trackerKey = (kind: TrackerKind, namespace: string | undefined, name: string) =>
  `${kind}/${namespace ?? ''}/${name}`;

/** Selects what carries this track's label: its tracking objects and children. */
export const trackSelector = (track: TrackOwner) => ({ labelSelector: `${trackUidLabel}=${track.uid}` });

/** Every tracking object labelled with this track's UID, keyed by `trackerKey`. */
export async function listTrackers(client: KubeClient, track: TrackOwner): Promise<Map<string, LiveTracker>> {
  const kinds: TrackerKind[] =
    track.kind === 'GitTrack' ? ['GitTrackObject'] : ['GitTrackObject', 'ClusterGitTrackObject'];
  const lists = await Promise.all(
    kinds.map(async (kind) => {
      const r = lightkeeperResources[kind];
      const path = resourcePath({ ...r, namespace: track.kind === 'GitTrack' ? track.namespace : undefined });
      const list = await client.get<{ items: LiveTracker[] }>(path, { query: trackSelector(track) });
      return list.items.map((item) => ({ ...item, kind }));
    }),
  );
  const byKey = new Map<string, LiveTracker>();
  // A tracking object being deleted was pruned already: it is no longer tracked, nor stale again.
  for (const t of lists.flat()) {
    if (!t.metadata.deletionTimestamp)
      byKey.set(trackerKey(t.kind, t.metadata.namespace, t.metadata.name), t);
  }
  return byKey;
}
