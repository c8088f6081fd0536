import pLimit from 'p-limit';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { farosApiVersion, farosResources } from '../../../lib/migrate/farosResources';

// What a Faros installation leaves in a cluster (shared/background/faros-crds/README.md), laid out
// as its controller writes it: a (Cluster)GitTrack per repository, one tracking object per manifest
// named lower(<kind>-<name>) holding the whole manifest base64 in spec.data and controlled by its
// track, and each child controlled by its tracking object.

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  [key: string]: unknown;
}

export interface FarosTrackSpec {
  kind: 'GitTrack' | 'ClusterGitTrack';
  namespace?: string;
  name: string;
  spec: Record<string, unknown>;
  /** Each manifest, and the namespace of its tracking object (undefined: a ClusterGitTrackObject). */
  children: Array<{ manifest: Manifest; trackerNamespace: string | undefined }>;
  /** Hold tracking objects in another namespace than the GitTrack against the collector (`heldFinalizer`). */
  holdAgainstCollector?: boolean;
}

export interface LaidOut {
  trackUid: string;
  trackers: Array<{ kind: string; namespace?: string | undefined; name: string; uid: string }>;
  children: Array<{ manifest: Manifest; uid: string; path: string }>;
  /** Lets the collector finish deleting the tracking objects held by `heldFinalizer` (call in finally). */
  release: () => Promise<void>;
}

/**
 * For a test about the tool rather than the collector (`holdAgainstCollector`). A GitTrackObject in
 * another namespace than its GitTrack has, to the garbage collector, an absent
 * owner: it deletes it (Faros issue 143) as soon as it watches Faros' kinds, which after an earlier
 * test re-installed the CRDs or restarted the controller manager can be mid-test. The layout stands
 * for a cluster the collector has not acted on yet, so such a tracking object carries this finalizer:
 * the collector's delete leaves it terminating, still listed, and its child keeps its owner.
 */
export const heldFinalizer = 'test.lightkeeper.dev/outlive-the-collector';

const plurals: Record<string, string> = {
  ConfigMap: 'configmaps',
  Secret: 'secrets',
  ServiceAccount: 'serviceaccounts',
  ClusterRole: 'clusterroles',
};

export const childPath = (m: Manifest) =>
  resourcePath({
    apiVersion: m.apiVersion,
    plural: plurals[m.kind] as string,
    namespace: m.metadata.namespace,
    name: m.metadata.name,
  });

const controllerOf = (o: { kind: string; name: string; uid: string }) => ({
  apiVersion: farosApiVersion,
  kind: o.kind,
  name: o.name,
  uid: o.uid,
  controller: true,
  blockOwnerDeletion: true,
});

/** Condition timestamps an hour old: a Faros controller stopped long ago. */
export const anHourAgo = () => new Date(Date.now() - 3600_000).toISOString();

const condition = (type: string) => ({
  type,
  status: 'True',
  lastUpdateTime: anHourAgo(),
  lastTransitionTime: anHourAgo(),
  reason: 'Synced',
});

/** Creates one Faros track, its tracking objects and its children, as Faros' controller leaves them. */
export async function layOutFarosTrack(client: KubeClient, t: FarosTrackSpec): Promise<LaidOut> {
  const limit = pLimit(16);
  const track = await client.request<{ metadata: { uid: string } }>(
    'POST',
    resourcePath({ ...farosResources[t.kind], namespace: t.namespace }),
    {
      body: {
        apiVersion: farosApiVersion,
        kind: t.kind,
        metadata: { name: t.name, ...(t.namespace ? { namespace: t.namespace } : {}) },
        spec: t.spec,
        status: {
          objectsDiscovered: t.children.length,
          objectsApplied: t.children.length,
          objectsIgnored: 0,
          objectsInSync: t.children.length,
          conditions: [condition('ParseError')],
        },
      },
    },
  );
  const owner = { kind: t.kind, name: t.name, uid: track.metadata.uid };
  const held = (trackerNamespace: string | undefined) =>
    t.holdAgainstCollector === true &&
    t.namespace !== undefined &&
    trackerNamespace !== undefined &&
    trackerNamespace !== t.namespace;
  const laid = await Promise.all(
    t.children.map(({ manifest, trackerNamespace }) =>
      limit(async () => {
        const kind = trackerNamespace ? 'GitTrackObject' : 'ClusterGitTrackObject';
        const name = `${manifest.kind}-${manifest.metadata.name.replace(/:/g, '-')}`.toLowerCase();
        const tracker = await client.request<{ metadata: { uid: string } }>(
          'POST',
          resourcePath({ ...farosResources[kind], namespace: trackerNamespace }),
          {
            body: {
              apiVersion: farosApiVersion,
              kind,
              metadata: {
                name,
                ...(trackerNamespace ? { namespace: trackerNamespace } : {}),
                ownerReferences: [controllerOf(owner)],
                ...(held(trackerNamespace) ? { finalizers: [heldFinalizer] } : {}),
              },
              spec: {
                kind: manifest.kind,
                name: manifest.metadata.name,
                data: Buffer.from(JSON.stringify(manifest)).toString('base64'),
              },
              status: { conditions: [condition('ObjectInSync')] },
            },
          },
        );
        const child = await client.request<{ metadata: { uid: string } }>(
          'POST',
          resourcePath({
            apiVersion: manifest.apiVersion,
            plural: plurals[manifest.kind] as string,
            namespace: manifest.metadata.namespace,
          }),
          {
            body: {
              ...manifest,
              metadata: {
                ...manifest.metadata,
                ownerReferences: [controllerOf({ kind, name, uid: tracker.metadata.uid })],
              },
            },
          },
        );
        return {
          tracker: { kind, namespace: trackerNamespace, name, uid: tracker.metadata.uid },
          child: { manifest, uid: child.metadata.uid, path: childPath(manifest) },
        };
      }),
    ),
  );
  return {
    trackUid: track.metadata.uid,
    trackers: laid.map((l) => l.tracker),
    children: laid.map((l) => l.child),
    release: async () => {
      for (const { tracker } of laid.filter((l) => held(l.tracker.namespace))) {
        const path = resourcePath({
          ...farosResources.GitTrackObject,
          namespace: tracker.namespace,
          name: tracker.name,
        });
        await client
          .request('PATCH', path, {
            body: { metadata: { finalizers: null } },
            contentType: 'application/merge-patch+json',
          })
          .catch(() => {});
      }
    },
  };
}
