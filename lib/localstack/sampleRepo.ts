// The sample GitOps repository of `lightkeeper start`, laid out as real ones are: cluster-scoped
// manifests under cluster/, namespaced ones in one folder per namespace (namespace left implicit).
import { commit, createRepo, git, type TestRepo } from './gitRepo';
import type { GitServer } from './gitServer';

export const demoNamespace = 'lightkeeper-demo';
export const teamNamespace = 'team-a';

const namespaces = [demoNamespace, teamNamespace]
  .map((name) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`)
  .join('---\n');

const clusterRole = (resources: string[]) => `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: lightkeeper-demo-viewer
rules:
  - apiGroups: [""]
    resources: [${resources.join(', ')}]
    verbs: [get, list, watch]
`;

const configMap = (name: string, data: Record<string, string>) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: "${v}"`)
    .join('\n')}\n`;

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: hello
  labels: { app: hello }
spec:
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

const service = `apiVersion: v1
kind: Service
metadata:
  name: hello
spec:
  selector: { app: hello }
  ports:
    - port: 80
      targetPort: 8080
`;

/** Every file of the first commit. */
export const initialFiles: Record<string, string> = {
  'cluster/namespaces.yaml': namespaces,
  'cluster/clusterrole.yaml': clusterRole(['configmaps']),
  [`${demoNamespace}/configmap.yaml`]: configMap('greeting', { GREETING: 'hello', RELEASE: '1' }),
  [`${demoNamespace}/deployment.yaml`]: deployment,
  [`${demoNamespace}/service.yaml`]: service,
  [`${teamNamespace}/configmap.yaml`]: configMap('team-settings', { OWNER: 'team-a', RELEASE: '1' }),
};

/** The change pushed at start: it touches every folder, so the one push concerns every track. */
export const releaseTwoFiles: Record<string, string> = {
  'cluster/clusterrole.yaml': clusterRole(['configmaps', 'services']),
  [`${demoNamespace}/configmap.yaml`]: configMap('greeting', { GREETING: 'hello again', RELEASE: '2' }),
  [`${teamNamespace}/configmap.yaml`]: configMap('team-settings', { OWNER: 'team-a', RELEASE: '2' }),
};

/** Creates the sample repository with its first commit; returns the repository and that commit. */
export function createSampleRepo(server: GitServer): { repo: TestRepo; first: string } {
  const repo = createRepo(server, 'gitops-sample');
  // Commits made by hand in the working tree need an identity, which a fresh machine may lack.
  git(repo, 'config', 'user.name', 'lightkeeper demo');
  git(repo, 'config', 'user.email', 'demo@lightkeeper.invalid');
  return { repo, first: commit(repo, initialFiles, 'Sample cluster: namespaces, RBAC, demo app, team-a') };
}
