import pLimit from 'p-limit';
import { isLightkeeperError, isNotFound } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import { identityKey, refOf } from '../manifests';
import { trackUidLabel } from '../manifests/metadataKeys';
import type { TrackOwner } from '../ownership/ownershipTable';
import { type PlannedObject, typeKey } from '../plan/plannedObject';
import { type LiveChildren, type LiveObject, listChildren } from './liveChildren';

/** Past this many objects one LIST per type costs less than a GET of each. */
export const maxChildGets = 500;

const metadataOnly = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

/**
 * listChildren for a few objects: a metadata-only GET of each instead of a LIST of its type, with
 * what the LIST's label selector would see: a child without this track's label is not ours (as if
 * absent), and a GitTrack sees only its own namespace. A GET refused otherwise than by a 404 sends
 * that type's LIST, so an unreadable type is reported exactly as listChildren reports it. Past
 * `maxChildGets` objects it is listChildren.
 */
export async function getChildren(
  client: KubeClient,
  track: TrackOwner,
  planned: readonly PlannedObject[],
  concurrency: number,
): Promise<LiveChildren> {
  if (planned.length > maxChildGets) return listChildren(client, track, planned);
  const children = new Map<string, LiveObject>();
  const refused = new Map<string, PlannedObject[]>();
  const limit = pLimit(concurrency);
  await Promise.all(
    planned.map((p) =>
      limit(async () => {
        const { resource } = p;
        const namespace = resource.namespaced ? p.manifest.ref.namespace : undefined;
        if (track.kind === 'GitTrack' && resource.namespaced && namespace !== track.namespace) return;
        let item: LiveObject & { metadata: { labels?: Record<string, string> } };
        try {
          const path = resourcePath({ ...resource, namespace, name: p.manifest.ref.name });
          item = await client.get(path, { accept: metadataOnly });
        } catch (e) {
          if (isNotFound(e)) return;
          if (!isLightkeeperError(e)) throw e;
          const type = typeKey(resource);
          refused.set(type, [...(refused.get(type) ?? []), p]);
          return;
        }
        if (item.metadata.labels?.[trackUidLabel] !== track.uid) return;
        const kind = p.manifest.ref.kind;
        children.set(identityKey(refOf({ ...item, apiVersion: resource.apiVersion, kind })), item);
      }),
    ),
  );
  const listed = await listChildren(client, track, [...refused.values()].flat());
  for (const [key, child] of listed.children) children.set(key, child);
  return { children, unreadable: listed.unreadable, whole: listed.whole };
}
