// The benchmark's synthetic repository: a fixed mix of kinds, one folder per namespace plus a
// cluster folder. `prefix` renames every namespace and cluster-scoped object, so several copies
// can be applied side by side on one API server, each starting from nothing.
import { stringify } from 'yaml';

export const shape = { objects: 2000, namespaces: 40, clusterScoped: 100 } as const;

type Obj = { apiVersion: string; kind: string; metadata: Record<string, unknown>; [k: string]: unknown };

const namespacedKinds = ['ConfigMap', 'Secret', 'Service', 'ServiceAccount', 'Role', 'Deployment'] as const;
type NamespacedKind = (typeof namespacedKinds)[number];

const pad = (n: number, width = 3) => String(n).padStart(width, '0');

function namespaced(kind: NamespacedKind, name: string, namespace: string): Obj {
  const metadata = { name, namespace, labels: { app: name, 'app.kubernetes.io/part-of': 'bench' } };
  switch (kind) {
    case 'ConfigMap':
      return {
        apiVersion: 'v1',
        kind,
        metadata,
        data: { 'settings.yaml': `name: ${name}\nreplicas: 3\n${'feature: on\n'.repeat(20)}`, mode: 'prod' },
      };
    case 'Secret':
      return {
        apiVersion: 'v1',
        kind,
        metadata,
        type: 'Opaque',
        data: { password: Buffer.from(`secret-of-${name}`).toString('base64') },
      };
    case 'Service':
      return {
        apiVersion: 'v1',
        kind,
        metadata,
        spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
      };
    case 'ServiceAccount':
      return { apiVersion: 'v1', kind, metadata };
    case 'Role':
      return {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind,
        metadata,
        rules: [{ apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['get', 'list', 'watch'] }],
      };
    case 'Deployment':
      return {
        apiVersion: 'apps/v1',
        kind,
        metadata,
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name } },
            spec: {
              containers: [
                {
                  name: 'app',
                  image: 'registry.example.com/bench/app:1.0.0',
                  ports: [{ containerPort: 8080 }],
                  env: [{ name: 'MODE', value: 'prod' }],
                  resources: { requests: { cpu: '50m', memory: '64Mi' } },
                },
              ],
            },
          },
        },
      };
  }
}

const clusterRole = (name: string): Obj => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name, labels: { 'app.kubernetes.io/part-of': 'bench' } },
  rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }],
});

/** Namespace names of the copy `prefix`. */
export const namespacesOf = (prefix: string) =>
  Array.from({ length: shape.namespaces }, (_, i) => `${prefix}-ns-${pad(i, 2)}`);

export interface RepoOptions {
  /** Objects in all (default `shape.objects`); namespaces and cluster-scoped objects stay as in `shape`. */
  objects?: number;
  /** `file-per-object`: one file per object (`<folder>/<kind>-<name>.yaml`) instead of one per kind. */
  layout?: 'file-per-kind' | 'file-per-object';
}

/**
 * The files of copy `prefix`: `cluster/namespaces.yaml`, `cluster/clusterroles.yaml` and
 * `namespaces/<ns>/<kind>.yaml` (multi-document), or one file per object in the same folders.
 * `cluster/` sorts first, so kubectl, which applies files in path order, creates the namespaces
 * before their contents.
 */
export function generateRepo(prefix: string, options: RepoOptions = {}): Record<string, string> {
  const namespaces = namespacesOf(prefix);
  const perObject = options.layout === 'file-per-object';
  const byFile = new Map<string, Obj[]>();
  const add = (path: string, o: Obj) => {
    const file = perObject
      ? `${path.slice(0, path.lastIndexOf('/'))}/${o.kind.toLowerCase()}-${o.metadata.name}.yaml`
      : path;
    byFile.set(file, [...(byFile.get(file) ?? []), o]);
  };

  for (const ns of namespaces)
    add('cluster/namespaces.yaml', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  for (let i = 0; i < shape.clusterScoped; i++)
    add('cluster/clusterroles.yaml', clusterRole(`${prefix}-clusterrole-${pad(i)}`));
  const rest = (options.objects ?? shape.objects) - shape.namespaces - shape.clusterScoped;
  for (let i = 0; i < rest; i++) {
    const kind = namespacedKinds[i % namespacedKinds.length]!;
    const ns = namespaces[Math.floor(i / namespacedKinds.length) % namespaces.length]!;
    add(
      `namespaces/${ns}/${kind.toLowerCase()}s.yaml`,
      namespaced(kind, `${kind.toLowerCase()}-${pad(i, 4)}`, ns),
    );
  }
  return Object.fromEntries(
    [...byFile].map(([path, objects]) => [
      path,
      objects.map((o) => stringify(o, { version: '1.1' })).join('---\n'),
    ]),
  );
}
