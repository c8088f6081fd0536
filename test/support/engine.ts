import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { KubeClient } from '../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../lib/kube/paths';
import { reconcile } from '../../lib/reconcile/reconcile';
import type { ReconcileDeps } from '../../lib/reconcile/reconcileDeps';
import type { ReconcileRequest } from '../../lib/reconcile/types';
import type { DeploymentConfig } from '../../lib/settings/deploymentModes';
import type { TrackRef } from '../../lib/track/trackRef';
import { uniqueName } from './cluster';
import { grant } from './tenancy';

export const includeNamespaced: DeploymentConfig = {
  gitTrackMode: 'Enabled',
  clusterGitTrackMode: 'IncludeNamespaced',
};

/** Multi-document YAML of plain objects, quoted as YAML 1.1 needs (kubectl reads `yes` as true). */
export const yamlOf = (...objects: object[]) =>
  objects.map((o) => stringify(o, { version: '1.1' })).join('---\n');

export const configMap = (
  name: string,
  data: Record<string, string> = { key: 'value' },
  namespace?: string,
) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(namespace ? { namespace } : {}) },
  data,
});

/**
 * Creates a GitTrack. A GitTrack acts as a service account of its namespace (`default` unless it
 * names one), so unless told otherwise (`access: false`) that account is bound to the built-in
 * `admin` role there first, as a tenant usually is.
 */
export async function createGitTrack(
  client: KubeClient,
  namespace: string,
  spec: Record<string, unknown>,
  options: { name?: string; access?: false } = {},
): Promise<TrackRef> {
  const name = options.name ?? uniqueName('gt');
  if (options.access !== false) {
    const serviceAccount = typeof spec.serviceAccountName === 'string' ? spec.serviceAccountName : 'default';
    await grant(client, namespace, { clusterRole: 'admin' }, serviceAccount);
  }
  await client.request('POST', resourcePath({ ...lightkeeperResources.GitTrack, namespace }), {
    body: { apiVersion: 'lightkeeper.dev/v1alpha1', kind: 'GitTrack', metadata: { name, namespace }, spec },
  });
  return { kind: 'GitTrack', namespace, name };
}

export async function createClusterGitTrack(
  client: KubeClient,
  spec: Record<string, unknown>,
  name = uniqueName('cgt'),
): Promise<TrackRef> {
  await client.request('POST', resourcePath(lightkeeperResources.ClusterGitTrack), {
    body: { apiVersion: 'lightkeeper.dev/v1alpha1', kind: 'ClusterGitTrack', metadata: { name }, spec },
  });
  return { kind: 'ClusterGitTrack', name };
}

export const patchTrackSpec = (client: KubeClient, track: TrackRef, spec: Record<string, unknown>) =>
  client.request(
    'PATCH',
    resourcePath({ ...lightkeeperResources[track.kind], namespace: track.namespace, name: track.name }),
    {
      body: { spec },
      contentType: 'application/merge-patch+json',
    },
  );

/** A reconciler with its own clone cache, as a fresh Lambda container would have. */
export function engine(client: KubeClient, overrides: Partial<ReconcileDeps> = {}) {
  const gitCacheRoot = mkdtempSync(join(tmpdir(), 'lk-engine-git-'));
  return {
    run: (track: TrackRef, request: Partial<ReconcileRequest> = {}, more: Partial<ReconcileDeps> = {}) =>
      reconcile(
        { client, config: includeNamespaced, gitCacheRoot, ...overrides, ...more },
        { track, ...request },
      ),
    dispose: () => rmSync(gitCacheRoot, { recursive: true, force: true }),
  };
}

export interface Live {
  metadata: {
    uid: string;
    name: string;
    resourceVersion?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: Array<{
      apiVersion: string;
      kind: string;
      name: string;
      uid: string;
      controller?: boolean;
      blockOwnerDeletion?: boolean;
    }>;
  };
  [key: string]: unknown;
}

export const getLive = (
  client: KubeClient,
  r: { apiVersion: string; plural: string },
  name: string,
  namespace?: string,
) => client.find<Live>(resourcePath({ ...r, namespace, name }));

export const configMaps = { apiVersion: 'v1', plural: 'configmaps' };

export interface TrackStatusView {
  uid: string;
  lastAppliedCommit?: string;
  lastAttemptedCommit?: string;
  lastSyncTime?: string;
  observedGeneration?: number;
  objectsDiscovered?: number;
  objectsApplied?: number;
  objectsInSync?: number;
  objectsIgnored?: number;
  objectsFailed?: number;
  objectsPruned?: number;
  objectsDrifted?: number;
  ignored?: Array<{ path: string; object?: string; reason: string }>;
  conditions: Array<{
    type: string;
    status: string;
    reason: string;
    message: string;
    lastTransitionTime: string;
  }>;
}

export async function trackStatus(client: KubeClient, track: TrackRef): Promise<TrackStatusView> {
  const t = await client.get<{ metadata: { uid: string }; status?: Omit<TrackStatusView, 'uid'> }>(
    resourcePath({ ...lightkeeperResources[track.kind], namespace: track.namespace, name: track.name }),
  );
  return { conditions: [], ...t.status, uid: t.metadata.uid };
}
