// The sample GitOps repository of `lightkeeper start`, laid out as real ones are: cluster-scoped
// manifests under cluster/, namespaced ones in one folder per namespace (namespace left implicit).
// Every object carries the run's label (lightkeeper.dev/start-run), so what a run made is plain to see.
import { startRunLabel } from '../manifests/metadataKeys';
import { commit, createRepo, git, type TestRepo } from './gitRepo';
import type { GitServer } from './gitServer';
import type { StartNames } from './startNames';

const labels = (names: StartNames, extra = '') =>
  `  labels: { ${extra}${extra ? ', ' : ''}${startRunLabel}: "${names.runId}" }\n`;

const namespaces = (names: StartNames) =>
  [names.demoNamespace, names.teamNamespace]
    .map((name) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n${labels(names)}`)
    .join('---\n');

const clusterRole = (names: StartNames, resources: string[]) => `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: ${names.viewerClusterRole}
${labels(names)}rules:
  - apiGroups: [""]
    resources: [${resources.join(', ')}]
    verbs: [get, list, watch]
`;

const configMap = (names: StartNames, name: string, data: Record<string, string>) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${labels(names)}data:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: "${v}"`)
    .join('\n')}\n`;

const deployment = (names: StartNames) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: hello
${labels(names, 'app: hello')}spec:
  replicas: 1
  selector:
    matchLabels: { app: hello }
  template:
    metadata:
      labels: { app: hello }
    spec:
      containers:
        - name: hello
          image: registry.k8s.io/pause:3.10
          envFrom:
            - configMapRef: { name: greeting }
`;

const service = (names: StartNames) => `apiVersion: v1
kind: Service
metadata:
  name: hello
${labels(names)}spec:
  selector: { app: hello }
  ports:
    - port: 80
      targetPort: 8080
`;

/** Every file of the first commit. */
export const initialFiles = (names: StartNames): Record<string, string> => ({
  'cluster/namespaces.yaml': namespaces(names),
  'cluster/clusterrole.yaml': clusterRole(names, ['configmaps']),
  [`${names.demoNamespace}/configmap.yaml`]: configMap(names, 'greeting', {
    GREETING: 'hello',
    RELEASE: '1',
  }),
  [`${names.demoNamespace}/deployment.yaml`]: deployment(names),
  [`${names.demoNamespace}/service.yaml`]: service(names),
  [`${names.teamNamespace}/configmap.yaml`]: configMap(names, 'team-settings', {
    OWNER: 'team-a',
    RELEASE: '1',
  }),
});

/** The change pushed at start: it touches every folder, so the one push concerns every track. */
export const releaseTwoFiles = (names: StartNames): Record<string, string> => ({
  'cluster/clusterrole.yaml': clusterRole(names, ['configmaps', 'services']),
  [`${names.demoNamespace}/configmap.yaml`]: configMap(names, 'greeting', {
    GREETING: 'hello again',
    RELEASE: '2',
  }),
  [`${names.teamNamespace}/configmap.yaml`]: configMap(names, 'team-settings', {
    OWNER: 'team-a',
    RELEASE: '2',
  }),
});

/** Creates the sample repository with its first commit; returns the repository and that commit. */
export function createSampleRepo(server: GitServer, names: StartNames): { repo: TestRepo; first: string } {
  const repo = createRepo(server, 'gitops-sample');
  // Commits made by hand in the working tree need an identity, which a fresh machine may lack.
  git(repo, 'config', 'user.name', 'lightkeeper demo');
  git(repo, 'config', 'user.email', 'demo@lightkeeper.invalid');
  return {
    repo,
    first: commit(repo, initialFiles(names), 'Sample cluster: namespaces, RBAC, demo app, team-a'),
  };
}
