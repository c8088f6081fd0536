import { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import { effectiveDeletionPolicy } from '../ownership/childOwnership';
import { trackOwner } from '../ownership/trackOwner';
import { loadTrack } from '../track/loadTrack';
import type { TrackRef } from '../track/trackRef';
import { listTrackers } from '../tracker/liveTracker';
import { buildTrackTree, type ChildMetadata, type TrackStatusInput, type TrackTree } from './buildTrackTree';

// Metadata only: a tree never needs, and must never print, a child's content (a Secret's data).
const metadataOnly = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

/** A track, its tracking objects and their children, read with the caller's identity. Reads only. */
export async function loadTrackTree(client: KubeClient, ref: TrackRef): Promise<TrackTree> {
  const track = await loadTrack(client, ref);
  const owner = trackOwner(track);
  const [trackers, discovery] = await Promise.all([
    listTrackers(client, owner),
    new Discovery(client).refresh(),
  ]);
  const pairs = await Promise.all(
    [...trackers.values()].map(async (tracker) => {
      const { apiVersion, kind, name } = tracker.spec.target;
      const resource = discovery.resourceFor(apiVersion, kind);
      if (!resource) return { tracker, child: undefined };
      const namespace = resource.namespaced ? tracker.metadata.namespace : undefined;
      const child = await client.find<ChildMetadata>(
        resourcePath({ apiVersion, plural: resource.plural, namespace, name }),
        { accept: metadataOnly, subject: `${kind} ${namespace ? `${namespace}/` : ''}${name}` },
      );
      return { tracker, child };
    }),
  );
  const status = (track.status ?? {}) as TrackStatusInput;
  return buildTrackTree(
    {
      kind: track.kind,
      namespace: track.metadata.namespace,
      name: track.metadata.name,
      uid: track.metadata.uid,
      deletionPolicy: effectiveDeletionPolicy(track.spec),
    },
    status,
    pairs,
  );
}
