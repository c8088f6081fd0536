import { isLightkeeperError, isNotFound } from '../errors';
import type { Unstructured } from '../kstatus/fields';
import type { KubeClient } from '../kube/kubeClient';
import { listPages } from '../kube/listPages';
import { resourcePath } from '../kube/paths';
import { identityKey, type KubeObject, refOf } from '../manifests';
import { trackUidLabel } from '../manifests/metadataKeys';
import type { TrackOwner } from '../ownership/ownershipTable';
import { type PlannedObject, typeKey } from '../plan/plannedObject';

/** A child whose health a run assesses, with its tracking object. */
export interface HealthTarget {
  planned: PlannedObject;
  /** Set when this run created or configured the child: when (epoch ms). */
  appliedAt?: number | undefined;
}

/** What a read found: each child by `PlannedObject.key`, and why a type could not be read. */
export interface LiveForHealth {
  objects: Map<string, Unstructured>;
  unreadable: Map<string, string>;
}

// Kinds whose health is "current once it exists" (no status, or a rule that ignores it): their
// content is neither needed nor read; metadata still says whether one is being deleted.
const metadataOnly = new Set([
  '/ConfigMap',
  '/Secret',
  '/ServiceAccount',
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/RoleBinding',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
]);
const metadataList = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

/** Health never reads who manages which field, and managed fields are most of a listed object's bytes. */
export function withoutManagedFields(item: Unstructured): Unstructured {
  const metadata = item.metadata as Record<string, unknown> | undefined;
  if (!metadata || !('managedFields' in metadata)) return item;
  const { managedFields: _, ...rest } = metadata;
  return { ...item, metadata: rest };
}

/**
 * Whether health reads a type's metadata only: the same request (a PartialObjectMetadataList with
 * the track's label, as its identity) as the apply's read of its children (lib/apply/liveChildren.ts).
 */
export const healthReadsMetadataOnly = (p: PlannedObject): boolean => {
  const group = p.resource.apiVersion.includes('/') ? p.resource.apiVersion.split('/')[0] : '';
  return metadataOnly.has(`${group}/${p.manifest.ref.kind}`);
};

/** One type's LIST as health reads it: its objects by key, or why it could not be read (a 404: none). */
export type TypeRead = { objects: Array<[string, Unstructured]> } | { error: string };

async function readType(client: KubeClient, track: TrackOwner, p: PlannedObject): Promise<TypeRead> {
  const { resource } = p;
  const kind = p.manifest.ref.kind;
  const namespace = track.kind === 'GitTrack' && resource.namespaced ? track.namespace : undefined;
  try {
    const items = await listPages(
      client,
      resourcePath({ ...resource, namespace }),
      {
        query: { labelSelector: `${trackUidLabel}=${track.uid}` },
        ...(healthReadsMetadataOnly(p) ? { accept: metadataList } : {}),
      },
      withoutManagedFields,
    );
    return {
      objects: items.map((item) => {
        const object = { ...item, apiVersion: resource.apiVersion, kind };
        return [identityKey(refOf(object as unknown as KubeObject)), object];
      }),
    };
  } catch (e) {
    if (isNotFound(e)) return { objects: [] };
    if (!isLightkeeperError(e)) throw e;
    return { error: e.message };
  }
}

/** The types of `planned`, one object of each, by typeKey. */
function typesOf(planned: readonly PlannedObject[]): Map<string, PlannedObject> {
  const types = new Map<string, PlannedObject>();
  for (const p of planned) types.set(typeKey(p.resource), p);
  return types;
}

/**
 * Starts the LIST of each type of `planned` now, for a read that comes later and takes those of
 * types it finds unwritten since (readHealthTargets' `early`).
 */
export function startTypeReads(
  client: KubeClient,
  track: TrackOwner,
  planned: readonly PlannedObject[],
): Map<string, Promise<TypeRead>> {
  const started = new Map<string, Promise<TypeRead>>();
  for (const [type, p] of typesOf(planned)) {
    const read = readType(client, track, p);
    // Handled here so that one never taken is no unhandled rejection; whoever takes it sees it.
    read.catch(() => undefined);
    started.set(type, read);
  }
  return started;
}

/**
 * The live state of `targets`, one LIST per resource type with the track's label, as `client`
 * (the track's identity: a GitTrack reads only what its service account may read). A Secret's or
 * ConfigMap's data is never read, nor kept any object's managed fields. Reads only. `early`: LISTs
 * started before, taken instead for their types (the caller passes only types nothing was written
 * to since they started).
 */
export async function readHealthTargets(
  client: KubeClient,
  track: TrackOwner,
  targets: readonly HealthTarget[],
  early?: ReadonlyMap<string, Promise<TypeRead>>,
): Promise<LiveForHealth> {
  const objects = new Map<string, Unstructured>();
  const unreadable = new Map<string, string>();
  const types = typesOf(targets.map((t) => t.planned));
  const reads = await Promise.all(
    [...types].map(
      async ([type, p]) => [type, await (early?.get(type) ?? readType(client, track, p))] as const,
    ),
  );
  for (const [type, read] of reads) {
    if ('error' in read) unreadable.set(type, read.error);
    else for (const [key, object] of read.objects) objects.set(key, object);
  }
  return { objects, unreadable };
}
