import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import type { TrackRef } from '../track/trackRef';
import type { StartLedger } from './startLedger';
import type { StartNames } from './startNames';

/**
 * Two kinds of track over one repository, each folder claimed by exactly one track (a track never
 * takes over another's object): the platform's ClusterGitTrack applies cluster/, a second
 * ClusterGitTrack the demo app (its manifests name no namespace: defaultNamespace places them), and
 * team-a's own GitTrack its folder. Deletion policy Delete: removing a track at exit removes what
 * it applied.
 */
export function sampleTracks(names: StartNames): Array<{ ref: TrackRef; spec: Record<string, string> }> {
  return [
    { ref: names.platformTrack, spec: { subPath: 'cluster' } },
    { ref: names.demoTrack, spec: { subPath: names.demoNamespace, defaultNamespace: names.demoNamespace } },
    { ref: names.teamTrack, spec: { subPath: names.teamNamespace } },
  ];
}

/**
 * Creates the sample tracks, never applying over an existing object (see StartLedger). The
 * namespaces come first: the GitTrack lives in one, and the demo track's first apply must not
 * race the platform track creating them; the platform track adopts them when it applies.
 */
export async function createSampleTracks(
  client: KubeClient,
  ledger: StartLedger,
  names: StartNames,
  repository: string,
): Promise<TrackRef[]> {
  for (const name of [names.demoNamespace, names.teamNamespace]) {
    await ledger.create(client, '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
    });
  }
  await grantTeamAccess(client, ledger, names);
  const tracks = sampleTracks(names);
  for (const { ref, spec } of tracks) {
    const resource = lightkeeperResources[ref.kind];
    await ledger.create(client, resourcePath({ ...resource, namespace: ref.namespace }), {
      apiVersion: resource.apiVersion,
      kind: resource.kind,
      metadata: { name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}) },
      spec: { repository, reference: 'main', deletionPolicy: 'Delete', ...spec },
    });
  }
  return tracks.map((t) => t.ref);
}

/**
 * A GitTrack acts as a service account of its own namespace (`default` here), never with the
 * reconciler's rights: onboarding team-a means binding that account to the built-in `edit` role in
 * team-a, as a cluster administrator would.
 */
async function grantTeamAccess(client: KubeClient, ledger: StartLedger, names: StartNames): Promise<void> {
  const namespace = names.teamNamespace;
  await ledger.create(client, `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: names.teamRoleBinding, namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
    subjects: [{ kind: 'ServiceAccount', name: 'default', namespace }],
  });
}
