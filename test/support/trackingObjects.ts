import { randomBytes } from 'node:crypto';
import type { KubeClient } from '../../lib/kube/kubeClient';
import { type LightkeeperKind, lightkeeperResources } from '../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../lib/kube/paths';
import type { OwnerReference } from '../../lib/ownership/ownerReference';

// Builders for the GC tests: tracks, tracking objects and children created directly, so the
// tests can set up both the legal shapes and the illegal ones the incident had.

export interface Created {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  namespace?: string | undefined;
  path: string;
}

interface Meta {
  metadata: { name: string; uid: string; namespace?: string };
}

export async function createObject(
  client: KubeClient,
  target: { apiVersion: string; kind: string; plural: string; namespace?: string | undefined; name: string },
  body: Record<string, unknown>,
  ownerReferences: OwnerReference[] = [],
): Promise<Created> {
  const collection = resourcePath({ ...target, name: undefined });
  const created = await client.request<Meta>('POST', collection, {
    body: {
      apiVersion: target.apiVersion,
      kind: target.kind,
      ...body,
      metadata: { name: target.name, namespace: target.namespace, ownerReferences },
    },
  });
  return {
    apiVersion: target.apiVersion,
    kind: target.kind,
    name: target.name,
    uid: created.metadata.uid,
    namespace: target.namespace,
    path: resourcePath({ ...target }),
  };
}

const sha = () => randomBytes(20).toString('hex');

export function createTrack(
  client: KubeClient,
  kind: 'GitTrack' | 'ClusterGitTrack',
  name: string,
  namespace?: string,
) {
  return createObject(
    client,
    { ...lightkeeperResources[kind], name, namespace },
    {
      spec: { repository: 'https://git.invalid/org/repo.git', reference: 'main' },
    },
  );
}

export function createTrackingObject(
  client: KubeClient,
  kind: Extract<LightkeeperKind, 'GitTrackObject' | 'ClusterGitTrackObject'>,
  name: string,
  namespace: string | undefined,
  target: { apiVersion: string; kind: string; name: string },
  ownerReferences: OwnerReference[],
) {
  return createObject(
    client,
    { ...lightkeeperResources[kind], name, namespace },
    { spec: { target, source: { path: `${name}.yaml`, commit: sha() }, digest: `sha256:${'0'.repeat(64)}` } },
    ownerReferences,
  );
}

/** The live UID of an object, or undefined once it is gone. */
export async function liveUid(client: KubeClient, o: Created): Promise<string | undefined> {
  const live = await client.find<Meta & { metadata: { deletionTimestamp?: string } }>(o.path);
  return live && !live.metadata.deletionTimestamp ? live.metadata.uid : undefined;
}
