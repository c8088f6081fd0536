import { isLightkeeperError, isNotFound } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import type { KubeObject } from '../manifests';
import { identityKey, refOf } from '../manifests';
import type { TrackerKind, TrackOwner } from '../ownership/ownershipTable';
import { trackUidLabel } from '../track/metadataKeys';
import type { PlannedObject } from './plannedObject';

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

export type LiveObject = KubeObject & {
  metadata: { uid: string; ownerReferences?: Array<{ uid: string; controller?: boolean }> };
};

export const trackerKey = (kind: TrackerKind, namespace: string | undefined, name: string) =>
  `${kind}/${namespace ?? ''}/${name}`;

const selector = (track: TrackOwner) => ({ labelSelector: `${trackUidLabel}=${track.uid}` });

/** Every tracking object labelled with this track's UID, keyed by `trackerKey`. */
export async function listTrackers(client: KubeClient, track: TrackOwner): Promise<Map<string, LiveTracker>> {
  const kinds: TrackerKind[] =
    track.kind === 'GitTrack' ? ['GitTrackObject'] : ['GitTrackObject', 'ClusterGitTrackObject'];
  const lists = await Promise.all(
    kinds.map(async (kind) => {
      const r = lightkeeperResources[kind];
      const path = resourcePath({ ...r, namespace: track.kind === 'GitTrack' ? track.namespace : undefined });
      const list = await client.get<{ items: LiveTracker[] }>(path, { query: selector(track) });
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

/** The live children of a batch, and the resource types whose LIST failed (keyed by `typeKey`). */
export interface LiveChildren {
  children: Map<string, LiveObject>;
  unreadable: Map<string, Error>;
}

/** `apiVersion/plural`: the key of a resource type in `LiveChildren.unreadable`. */
export const typeKey = (resource: { apiVersion: string; plural: string }) =>
  `${resource.apiVersion}/${resource.plural}`;

/**
 * The live children of `planned` that carry this track's label, keyed by identity: one LIST per
 * resource type (not one GET per object), which is what makes a no-op reconcile cheap. A type that
 * cannot be listed (typically RBAC: the track's identity may not read Deployments) is reported in
 * `unreadable`, so only that type's objects fail.
 */
export async function listChildren(
  client: KubeClient,
  track: TrackOwner,
  planned: readonly PlannedObject[],
): Promise<LiveChildren> {
  const types = new Map<string, PlannedObject['resource'] & { kind: string }>();
  for (const p of planned) types.set(typeKey(p.resource), { ...p.resource, kind: p.manifest.ref.kind });
  const children = new Map<string, LiveObject>();
  const unreadable = new Map<string, Error>();
  await Promise.all(
    [...types.values()].map(async (resource) => {
      const namespace = track.kind === 'GitTrack' && resource.namespaced ? track.namespace : undefined;
      try {
        const list = await client.get<{ items: LiveObject[] }>(resourcePath({ ...resource, namespace }), {
          query: selector(track),
          // Ownership and managed fields are all the in-sync check reads: metadata only.
          accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
        });
        for (const item of list.items ?? []) {
          children.set(
            identityKey(refOf({ ...item, apiVersion: resource.apiVersion, kind: resource.kind })),
            item,
          );
        }
      } catch (e) {
        // Not served yet: a CRD from this very commit. Nothing of that type can exist.
        if (isNotFound(e)) return;
        if (!isLightkeeperError(e)) throw e;
        unreadable.set(typeKey(resource), e);
      }
    }),
  );
  return { children, unreadable };
}
