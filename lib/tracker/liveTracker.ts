import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { listPages } from '../kube/listPages';
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

/**
 * What a reconcile reads of a listed tracking object (pure): the fields of LiveTracker, without its
 * managed fields, labels and annotations, which are most of its bytes. `undefined` for one being
 * deleted: it was pruned already, it is no longer tracked, nor stale again.
 */
export function slimTracker(item: LiveTracker, kind: TrackerKind): LiveTracker | undefined {
  const { metadata: m, spec, status } = item;
  if (m.deletionTimestamp) return undefined;
  return {
    kind,
    metadata: {
      name: m.name,
      uid: m.uid,
      ...(m.namespace === undefined ? {} : { namespace: m.namespace }),
      ...(m.ownerReferences === undefined ? {} : { ownerReferences: m.ownerReferences }),
    },
    spec: {
      target: spec.target,
      source: spec.source,
      digest: spec.digest,
      ...(spec.updateStrategy === undefined ? {} : { updateStrategy: spec.updateStrategy }),
    },
    ...(status === undefined
      ? {}
      : {
          status: {
            ...(status.lastAppliedDigest === undefined
              ? {}
              : { lastAppliedDigest: status.lastAppliedDigest }),
            ...(status.lastAppliedCommit === undefined
              ? {}
              : { lastAppliedCommit: status.lastAppliedCommit }),
            ...(status.lastAppliedFieldsDigest === undefined
              ? {}
              : { lastAppliedFieldsDigest: status.lastAppliedFieldsDigest }),
            ...(status.conditions === undefined ? {} : { conditions: status.conditions }),
          },
        }),
  };
}

/**
 * Every tracking object labelled with this track's UID, keyed by `trackerKey`, read a page at a time.
 * With `namespaces` (a shard of namespaced objects): only the GitTrackObjects in those namespaces,
 * one LIST each, instead of every tracking object of the track.
 */
export async function listTrackers(
  client: KubeClient,
  track: TrackOwner,
  namespaces?: readonly string[],
): Promise<Map<string, LiveTracker>> {
  const lists: Array<{ kind: TrackerKind; namespace: string | undefined }> =
    track.kind === 'GitTrack'
      ? [{ kind: 'GitTrackObject', namespace: track.namespace }]
      : namespaces
        ? namespaces.map((namespace) => ({ kind: 'GitTrackObject', namespace }))
        : [
            { kind: 'GitTrackObject', namespace: undefined },
            { kind: 'ClusterGitTrackObject', namespace: undefined },
          ];
  const listed = await Promise.all(
    lists.map(({ kind, namespace }) =>
      listPages(
        client,
        resourcePath({ ...lightkeeperResources[kind], namespace }),
        { query: trackSelector(track) },
        (item: LiveTracker) => slimTracker(item, kind),
      ),
    ),
  );
  const byKey = new Map<string, LiveTracker>();
  for (const t of listed.flat()) byKey.set(trackerKey(t.kind, t.metadata.namespace, t.metadata.name), t);
  return byKey;
}
