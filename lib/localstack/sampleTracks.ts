import { setTimeout as sleep } from 'node:timers/promises';
import { isConflict, WaitTimeoutError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { serverSideApply } from '../kube/serverSideApply';
import type { TrackRef } from '../reconcile/types';
import { demoNamespace, teamNamespace } from './sampleRepo';

interface SampleTrack {
  ref: TrackRef;
  spec: { subPath: string; defaultNamespace?: string };
}

/**
 * Two kinds of track over one repository, each folder claimed by exactly one track (a track never
 * takes over another's object): the platform's ClusterGitTrack applies cluster/, a second
 * ClusterGitTrack the demo app (its manifests name no namespace: defaultNamespace places them), and
 * team-a's own GitTrack its folder.
 */
export const sampleTracks: SampleTrack[] = [
  { ref: { kind: 'ClusterGitTrack', name: 'platform' }, spec: { subPath: 'cluster' } },
  {
    ref: { kind: 'ClusterGitTrack', name: 'demo' },
    spec: { subPath: demoNamespace, defaultNamespace: demoNamespace },
  },
  { ref: { kind: 'GitTrack', namespace: teamNamespace, name: 'team-a' }, spec: { subPath: teamNamespace } },
];

/**
 * Creates (or re-points, on a cluster kept from an earlier run) the sample tracks. The namespaces
 * are created first when missing: the GitTrack lives in one, and the demo track's first apply must
 * not race the platform track creating them; the platform track adopts them when it applies.
 */
export async function applySampleTracks(client: KubeClient, repository: string): Promise<TrackRef[]> {
  for (const name of [demoNamespace, teamNamespace]) await ensureNamespace(client, name);
  await grantTeamAccess(client);
  for (const { ref, spec } of sampleTracks) {
    const resource = lightkeeperResources[ref.kind];
    await serverSideApply(
      client,
      { ...resource, namespace: ref.namespace, name: ref.name },
      {
        apiVersion: resource.apiVersion,
        kind: resource.kind,
        metadata: { name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}) },
        spec: { repository, reference: 'main', ...spec },
      },
    );
  }
  return sampleTracks.map((t) => t.ref);
}

/**
 * A GitTrack acts as a service account of its own namespace (`default` here), never with the
 * reconciler's rights: onboarding team-a means binding that account to the built-in `edit` role in
 * team-a, as a cluster administrator would.
 */
async function grantTeamAccess(client: KubeClient): Promise<void> {
  const name = 'lightkeeper-team-a';
  await serverSideApply(
    client,
    { apiVersion: 'rbac.authorization.k8s.io/v1', plural: 'rolebindings', namespace: teamNamespace, name },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name, namespace: teamNamespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
      subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: teamNamespace }],
    },
  );
}

/** Creates the namespace unless it exists; waits out the deletion of one left by an earlier run. */
async function ensureNamespace(client: KubeClient, name: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const live = await client.find<{ status?: { phase?: string } }>(`/api/v1/namespaces/${name}`);
    if (live && live.status?.phase !== 'Terminating') return;
    if (!live) {
      try {
        await client.request('POST', '/api/v1/namespaces', {
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
        });
        return;
      } catch (e) {
        if (!isConflict(e)) throw e;
      }
    }
    if (Date.now() > deadline) {
      throw new WaitTimeoutError(`namespace ${name} is still being deleted after ${timeoutMs} ms`, {
        subject: `Namespace/${name}`,
      });
    }
    await sleep(500);
  }
}
