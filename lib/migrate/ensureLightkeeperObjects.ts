import { ApplyError, isConflict } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperApiVersion, lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import { migratedFromAnnotation, migratedFromUidAnnotation, trackUidLabel } from '../manifests/metadataKeys';
import type { LiveOwnerReference } from '../ownership/handover';
import type { OwnershipDecision, TrackOwner } from '../ownership/ownershipTable';
import { migrateFieldManager } from './handOverChild';
import type { TrackMapping } from './mapFarosTrack';
import type { ChildTarget } from './planChild';

interface Live {
  metadata: { uid: string; annotations?: Record<string, string>; ownerReferences?: LiveOwnerReference[] };
}

/** Creates an object, or finds the one a previous run created; `accept` says whether a found one is ours. */
async function createOrFind(
  client: KubeClient,
  collection: string,
  path: string,
  body: object,
  subject: string,
  accept: (live: Live) => string | undefined,
): Promise<string> {
  const found = await client.find<Live>(path);
  if (!found) {
    try {
      const created = await client.request<Live>('POST', collection, {
        body,
        query: { fieldManager: migrateFieldManager },
        subject,
      });
      return created.metadata.uid;
    } catch (e) {
      if (!isConflict(e)) throw e;
    }
  }
  const live = found ?? (await client.get<Live>(path));
  const refusal = accept(live);
  if (refusal) throw new ApplyError(`${subject}: ${refusal}`, { subject });
  return live.metadata.uid;
}

/** The lightkeeper track for a Faros track, created once and marked with the Faros track's UID. */
export function ensureTrack(client: KubeClient, m: TrackMapping): Promise<string> {
  const r = lightkeeperResources[m.target.kind];
  const subject = `${m.target.kind} ${m.target.namespace ? `${m.target.namespace}/` : ''}${m.target.name}`;
  return createOrFind(
    client,
    resourcePath({ ...r, namespace: m.target.namespace }),
    resourcePath({ ...r, namespace: m.target.namespace, name: m.target.name }),
    {
      apiVersion: lightkeeperApiVersion,
      kind: m.target.kind,
      metadata: {
        name: m.target.name,
        ...(m.target.namespace ? { namespace: m.target.namespace } : {}),
        annotations: { [migratedFromAnnotation]: m.label, [migratedFromUidAnnotation]: m.source.uid },
      },
      spec: m.spec,
    },
    subject,
    (live) =>
      live.metadata.annotations?.[migratedFromUidAnnotation] === m.source.uid
        ? undefined
        : `exists and was not created by migrating ${m.label}`,
  );
}

// The tracking object's source until the first reconcile records the file and commit.
const unknownCommit = '0'.repeat(40);

/**
 * The child's lightkeeper tracking object, named and owned as the ownership table decides, so the
 * first reconcile finds it as its own. Its spec records what Faros knew: the target and a digest
 * of the manifest Faros last recorded; the first reconcile rewrites both from git.
 */
export function ensureTracker(
  client: KubeClient,
  track: TrackOwner,
  decision: Extract<OwnershipDecision, { verdict: 'track' }>,
  child: ChildTarget,
  faros: { label: string; digest: string },
): Promise<string> {
  const r = lightkeeperResources[decision.tracker];
  const namespace = r.namespaced ? decision.namespace : undefined;
  return createOrFind(
    client,
    resourcePath({ ...r, namespace }),
    resourcePath({ ...r, namespace, name: decision.trackerName }),
    {
      apiVersion: lightkeeperApiVersion,
      kind: decision.tracker,
      metadata: {
        name: decision.trackerName,
        ...(namespace ? { namespace } : {}),
        labels: { [trackUidLabel]: track.uid },
        annotations: { [migratedFromAnnotation]: faros.label },
        ownerReferences: [decision.trackerOwner],
      },
      spec: {
        target: { apiVersion: child.apiVersion, kind: child.kind, name: child.name },
        source: { path: `(migrated from ${faros.label})`, commit: unknownCommit },
        digest: faros.digest,
        updateStrategy: 'Update',
      },
    },
    `${decision.tracker} ${decision.trackerName}`,
    (live) => {
      const controller = live.metadata.ownerReferences?.find((o) => o.controller);
      return controller?.uid === track.uid
        ? undefined
        : `exists, controlled by ${controller ? `${controller.kind} ${controller.name}` : 'no track'}`;
    },
  );
}
