import { isLightkeeperError, isNotFound } from '../errors';
import { withoutManagedFields } from '../health/readHealthTargets';
import type { Unstructured } from '../kstatus/fields';
import type { KubeClient } from '../kube/kubeClient';
import { listPages } from '../kube/listPages';
import { resourcePath } from '../kube/paths';
import { identityKey, type KubeObject, refOf } from '../manifests';
import type { TrackOwner } from '../ownership/ownershipTable';
import { type PlannedObject, typeKey } from '../plan/plannedObject';
import { trackSelector } from '../tracker/liveTracker';

export type LiveObject = KubeObject & {
  metadata: { uid: string; ownerReferences?: Array<{ uid: string; controller?: boolean }> };
};

/** The live children of a batch, and the resource types whose LIST failed (by `typeKey`). */
export interface LiveChildren {
  children: Map<string, LiveObject>;
  unreadable: Map<string, Error>;
  /**
   * The children of the types listed whole (`wholeTypes`), as listed but for their managed fields,
   * by identity key: what health reads of them (lib/reconcile/earlyReads.ts).
   */
  whole: Map<string, Unstructured>;
}

type ListedMetadata = LiveObject['metadata'] & {
  managedFields?: Array<Record<string, unknown>>;
  [key: string]: unknown;
};

const metadataKeys = [
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'labels',
  'annotations',
  'ownerReferences',
  'deletionTimestamp',
  'finalizers',
];
const entryKeys = ['manager', 'operation', 'subresource', 'fieldsV1'];

/** The fields of `keys` an object has (pure). */
const picked =
  (keys: readonly string[]) =>
  (from: Record<string, unknown>): Record<string, unknown> => {
    const to: Record<string, unknown> = {};
    for (const k of keys) if (from[k] !== undefined) to[k] = from[k];
    return to;
  };

/**
 * What the apply reads of a listed child (pure): its identity and resourceVersion (the in-sync
 * check's memo key: lib/apply/inSync.ts), labels, annotations, owner references, deletion and who
 * manages which field; not the rest of the server's bookkeeping (creationTimestamp, generation,
 * each managed-fields entry's time and format), read afresh by a GET when a write needs it.
 */
export function slimChild(item: LiveObject): LiveObject {
  const m = item.metadata as ListedMetadata;
  const metadata = picked(metadataKeys)(m) as ListedMetadata;
  if (m.managedFields !== undefined) metadata.managedFields = m.managedFields.map(picked(entryKeys));
  return { apiVersion: item.apiVersion, kind: item.kind, metadata } as LiveObject;
}

const metadataList = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

/**
 * The live children of `planned` that carry this track's label, keyed by identity: one LIST per
 * resource type (not one GET per object), which is what makes a no-op reconcile cheap. A type that
 * cannot be listed (typically RBAC: the track's identity may not read Deployments) is reported in
 * `unreadable`, so only that type's objects fail. With `namespaces` (a shard's, all its objects in
 * them), a namespaced type is listed in each of them instead of across the cluster: a shard reads
 * its own part, not every child the track has. A type of `wholeTypes` (by `typeKey`) is listed
 * with its objects' content, kept in `whole`; any other, as metadata only.
 */
export async function listChildren(
  client: KubeClient,
  track: TrackOwner,
  planned: readonly PlannedObject[],
  namespaces?: readonly string[],
  wholeTypes?: ReadonlySet<string>,
): Promise<LiveChildren> {
  const types = new Map<string, PlannedObject['resource'] & { kind: string }>();
  for (const p of planned) types.set(typeKey(p.resource), { ...p.resource, kind: p.manifest.ref.kind });
  const children = new Map<string, LiveObject>();
  const unreadable = new Map<string, Error>();
  const whole = new Map<string, Record<string, unknown>>();
  const lists = [...types.values()].flatMap((resource) =>
    (!resource.namespaced
      ? [undefined]
      : track.kind === 'GitTrack'
        ? [track.namespace]
        : (namespaces ?? [undefined])
    ).map((namespace) => ({ resource, namespace })),
  );
  await Promise.all(
    lists.map(async ({ resource, namespace }) => {
      const listedWhole = wholeTypes?.has(typeKey(resource)) === true;
      try {
        // Ownership and managed fields are all the in-sync check reads: metadata only (unless health
        // reads the content too), a page at a time.
        const items = await listPages(
          client,
          resourcePath({ ...resource, namespace }),
          { query: trackSelector(track), ...(listedWhole ? {} : { accept: metadataList }) },
          (item: LiveObject) => ({
            child: slimChild(item),
            // A list's items carry no type: the resource's is set, as health's own LIST would.
            ...(listedWhole
              ? {
                  body: withoutManagedFields({
                    ...(item as unknown as Unstructured),
                    apiVersion: resource.apiVersion,
                    kind: resource.kind,
                  }),
                }
              : {}),
          }),
        );
        for (const { child, body } of items) {
          const key = identityKey(refOf({ ...child, apiVersion: resource.apiVersion, kind: resource.kind }));
          children.set(key, child);
          if (body) whole.set(key, body);
        }
      } catch (e) {
        // Not served yet: a CRD from this very commit. Nothing of that type can exist.
        if (isNotFound(e)) return;
        if (!isLightkeeperError(e)) throw e;
        unreadable.set(typeKey(resource), e);
      }
    }),
  );
  return { children, unreadable, whole };
}
