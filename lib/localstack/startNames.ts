import { ConfigError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import type { TrackRef } from '../track/trackRef';

/**
 * Every name one `lightkeeper start` gives an object it creates. The plain names when none of them
 * is taken in the cluster; otherwise all of them end in `-<run id>`, so a run never meets a
 * user's object of the same name (and creates, never applies over, so a race is a refusal).
 */
export interface StartNames {
  runId: string;
  /** `''` for the plain names, else `-<run id>`. */
  suffix: string;
  platformTrack: TrackRef;
  demoTrack: TrackRef;
  teamTrack: TrackRef;
  demoNamespace: string;
  teamNamespace: string;
  /** The ClusterRole the sample repository's cluster/ folder defines. */
  viewerClusterRole: string;
  /** The RoleBinding that lets team-a's GitTrack (its `default` ServiceAccount) edit its namespace. */
  teamRoleBinding: string;
  /** The namespace of the functions' read-only identities (infra/rbac/webhook.yaml, sweep.yaml). */
  systemNamespace: string;
  /** The webhook's and the sweep's identities, each allowed only to read tracks. */
  readers: Record<TrackReaderName, ReaderNames>;
}

export type TrackReaderName = 'webhook' | 'sweep';

export interface ReaderNames {
  serviceAccount: string;
  clusterRole: string;
  clusterRoleBinding: string;
}

export function startNames(runId: string, suffixed: boolean): StartNames {
  const suffix = suffixed ? `-${runId}` : '';
  const n = (name: string) => `${name}${suffix}`;
  const teamNamespace = n('team-a');
  return {
    runId,
    suffix,
    platformTrack: { kind: 'ClusterGitTrack', name: n('platform') },
    demoTrack: { kind: 'ClusterGitTrack', name: n('demo') },
    teamTrack: { kind: 'GitTrack', namespace: teamNamespace, name: n('team-a') },
    demoNamespace: n('lightkeeper-demo'),
    teamNamespace,
    viewerClusterRole: n('lightkeeper-demo-viewer'),
    teamRoleBinding: n('lightkeeper-team-a'),
    systemNamespace: n('lightkeeper-system'),
    readers: {
      webhook: reader('lightkeeper-webhook', suffix),
      sweep: reader('lightkeeper-sweep', suffix),
    },
  };
}

const reader = (name: string, suffix: string): ReaderNames => ({
  serviceAccount: name,
  clusterRole: `${name}${suffix}`,
  clusterRoleBinding: `${name}${suffix}`,
});

/**
 * The cluster-level objects `names` would create, as `Kind/name` → API path. Everything else a run
 * creates lives in one of these namespaces, so it cannot exist unless its namespace does.
 */
export function namedObjects(names: StartNames): Record<string, string> {
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  const track = (ref: TrackRef) =>
    resourcePath({ ...lightkeeperResources[ref.kind], namespace: ref.namespace, name: ref.name });
  return {
    [`ClusterGitTrack/${names.platformTrack.name}`]: track(names.platformTrack),
    [`ClusterGitTrack/${names.demoTrack.name}`]: track(names.demoTrack),
    [`Namespace/${names.demoNamespace}`]: `/api/v1/namespaces/${names.demoNamespace}`,
    [`Namespace/${names.teamNamespace}`]: `/api/v1/namespaces/${names.teamNamespace}`,
    [`Namespace/${names.systemNamespace}`]: `/api/v1/namespaces/${names.systemNamespace}`,
    [`ClusterRole/${names.viewerClusterRole}`]: `${rbac}/clusterroles/${names.viewerClusterRole}`,
    ...Object.fromEntries(
      Object.values(names.readers).flatMap((r) => [
        [`ClusterRole/${r.clusterRole}`, `${rbac}/clusterroles/${r.clusterRole}`],
        [`ClusterRoleBinding/${r.clusterRoleBinding}`, `${rbac}/clusterrolebindings/${r.clusterRoleBinding}`],
      ]),
    ),
  };
}

/** Which of `names`' objects exist in the cluster (`Kind/name`). */
export async function existingObjects(client: KubeClient, names: StartNames): Promise<string[]> {
  const found = await Promise.all(
    Object.entries(namedObjects(names)).map(async ([label, path]) =>
      (await client.find(path)) === undefined ? undefined : label,
    ),
  );
  return found.filter((label): label is string => label !== undefined);
}

/**
 * The plain names when the cluster has none of them, else the run's suffixed names (`taken` says
 * why); refuses when even those are taken.
 */
export async function chooseStartNames(
  client: KubeClient,
  runId: string,
): Promise<{ names: StartNames; taken: string[] }> {
  const plain = startNames(runId, false);
  const taken = await existingObjects(client, plain);
  if (taken.length === 0) return { names: plain, taken };
  const suffixed = startNames(runId, true);
  const alsoTaken = await existingObjects(client, suffixed);
  if (alsoTaken.length > 0) {
    throw new ConfigError(
      `lightkeeper start creates only objects that do not exist yet, and ${alsoTaken.join(', ')} already exist: nothing was created`,
      { subject: alsoTaken.join(', ') },
    );
  }
  return { names: suffixed, taken };
}
