import { yamlOf } from '../../support/engine';
import type { FarosTrackSpec, Manifest } from './farosLayout';

// The Faros installation the migration test takes over: 112 children in three namespaces and
// cluster scope, under four Faros tracks of every shape Faros left.

const cm = (name: string, namespace: string): Manifest => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  data: { key: name },
});
const secret = (name: string, namespace: string): Manifest => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace },
  type: 'Opaque',
  data: { password: Buffer.from(`pw-${name}`).toString('base64') },
});
const sa = (name: string, namespace: string): Manifest => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, namespace },
});
const clusterRole = (name: string): Manifest => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name },
  rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
});
const range = (n: number) => Array.from({ length: n }, (_, i) => String(i).padStart(2, '0'));

/**
 * Four Faros tracks reading one repository: a legal GitTrack in a, the incident's GitTrack in a
 * (tracking objects in a, b, c and cluster-scoped), a ClusterGitTrack, and a GitTrack in c whose
 * ServiceAccount may do nothing. Every one but the last authenticates with an HTTPBasicAuth key.
 */
export function farosInstall(
  ns: { a: string; b: string; c: string },
  repository: string,
  clusterTrack: string,
  roles: readonly string[],
): Record<string, FarosTrackSpec> {
  const { a, b, c } = ns;
  const deployKey = { secretName: 'faros-git', key: 'creds', type: 'HTTPBasicAuth' };
  return {
    // Legal: a GitTrack owning tracking objects of its own namespace only.
    team: {
      kind: 'GitTrack',
      namespace: a,
      name: 'team',
      spec: { repository, reference: 'main', subPath: 'team', deployKey },
      children: [
        ...range(40).map((i) => cm(`team-${i}`, a)),
        ...range(5).map((i) => secret(`team-${i}`, a)),
        ...range(5).map((i) => sa(`team-${i}`, a)),
      ].map((manifest) => ({ manifest, trackerNamespace: a })),
    },
    // The incident's shape: a GitTrack in a owning tracking objects in b and c, and cluster-scoped ones.
    platform: {
      kind: 'GitTrack',
      namespace: a,
      name: 'platform',
      spec: { repository, reference: 'main', subPath: '/platform/', deployKey },
      children: [
        ...[a, b, c].flatMap((ns, n) =>
          range(n === 0 ? 5 : 20).map((i) => ({ manifest: cm(`platform-${i}`, ns), trackerNamespace: ns })),
        ),
        ...roles.slice(0, 2).map((r) => ({ manifest: clusterRole(r), trackerNamespace: undefined })),
      ],
    },
    // Legal: a ClusterGitTrack owning cluster-scoped tracking objects and namespaced ones anywhere.
    cluster: {
      kind: 'ClusterGitTrack',
      name: clusterTrack,
      spec: {
        repository,
        reference: 'main',
        subPath: 'cluster',
        deployKey: { ...deployKey, secretNamespace: a },
      },
      children: [
        ...roles.slice(2).map((r) => ({ manifest: clusterRole(r), trackerNamespace: undefined })),
        ...range(10).map((i) => ({ manifest: cm(`cluster-${i}`, b), trackerNamespace: b })),
      ],
    },
    // Legal, but its namespace's default ServiceAccount may manage nothing there: reported, left alone.
    nosa: {
      kind: 'GitTrack',
      namespace: c,
      name: 'nosa',
      spec: { repository, reference: 'main', subPath: 'nosa' },
      children: range(2).map((i) => ({ manifest: cm(`nosa-${i}`, c), trackerNamespace: c })),
    },
  };
}

/** Every manifest of the installation, as committed to the repository its tracks read. */
export function gitFiles(tracks: Record<string, FarosTrackSpec>): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [dir, t] of Object.entries(tracks))
    for (const { manifest } of t.children)
      files[
        `${dir}/${manifest.kind.toLowerCase()}-${manifest.metadata.namespace ?? 'cluster'}-${manifest.metadata.name}.yaml`
      ] = yamlOf(manifest);
  return files;
}
