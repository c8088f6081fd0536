import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvokeCommand } from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../lib/kube/kubeClient';
import { createLambdaClient } from '../../lib/lambda/lambdaClient';
import { commit, createRepo } from '../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../lib/localstack/gitServer';
import { type OfflineStack, startServerlessOffline } from '../../lib/localstack/serverlessOffline';
import { provisionWebhookIdentity } from '../../lib/localstack/webhookIdentity';
import { freshNamespace, kubeClient, kubeconfig } from '../support/cluster';
import { kustomizeFixture } from '../support/kustomizeFixture';
import { grant } from '../support/tenancy';

// The reconcile function as deployed (bundled) renders an overlay with the kustomize engine it is
// given through LIGHTKEEPER_KUSTOMIZE_BIN (in Lambda the layer's /opt/bin/kustomize-render).

let client: KubeClient;
let namespace: string;
let server: GitServer;
let stack: OfflineStack;
let identityDir: string;

beforeAll(async () => {
  client = await kubeClient();
  namespace = await freshNamespace(client, 'e2e-kz');
  server = await startGitServer();
  const repo = createRepo(server, 'overlays');
  commit(repo, kustomizeFixture(namespace), 'base, component and overlays');
  await grant(client, namespace, { clusterRole: 'edit' });
  await client.request('POST', `/apis/lightkeeper.dev/v1alpha1/namespaces/${namespace}/gittracks`, {
    body: {
      apiVersion: 'lightkeeper.dev/v1alpha1',
      kind: 'GitTrack',
      metadata: { name: 'web' },
      spec: { repository: repo.url, reference: 'main', subPath: 'overlays/prod' },
    },
  });
  identityDir = mkdtempSync(join(tmpdir(), 'lightkeeper-e2e-kustomize-'));
  const identity = await provisionWebhookIdentity(client, kubeconfig(), identityDir);
  stack = await startServerlessOffline({
    kubeconfig: kubeconfig(),
    webhookKubeconfig: identity.kubeconfig,
    webhookSecret: 'unused',
    env: { LIGHTKEEPER_NAMESPACE: namespace, CLUSTERGITTRACK_MODE: 'Disabled' },
  });
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await server?.close();
  await client?.request('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => {});
  await client?.close();
  if (identityDir) rmSync(identityDir, { recursive: true, force: true });
});

describe('the reconcile function', () => {
  it('renders a kustomize overlay and applies it, each object under its source file', async () => {
    const lambda = createLambdaClient({ endpoint: stack.lambdaEndpoint });
    const out = await lambda.send(
      new InvokeCommand({
        FunctionName: stack.functionName('reconcile'),
        Payload: new TextEncoder().encode(
          JSON.stringify({ track: { kind: 'GitTrack', namespace, name: 'web' }, reason: 'e2e' }),
        ),
      }),
    );
    expect(out.FunctionError).toBeUndefined();
    const status = await client.get<{
      status: { lastAppliedCommit?: string; conditions: Array<{ type: string; message: string }> };
    }>(`/apis/lightkeeper.dev/v1alpha1/namespaces/${namespace}/gittracks/web`);
    expect(status.status.conditions.find((c) => c.type === 'Parsed')?.message).toBe(
      '4 objects rendered by kustomize from overlays/prod/kustomization.yaml',
    );
    const deployment = await client.find<{ spec: { replicas: number } }>(
      `/apis/apps/v1/namespaces/${namespace}/deployments/prod-web`,
    );
    expect(deployment?.spec.replicas).toBe(3);
    const trackers = await client.get<{
      items: Array<{ spec: { target: { name: string }; source: { path: string } } }>;
    }>(`/apis/lightkeeper.dev/v1alpha1/namespaces/${namespace}/gittrackobjects`);
    expect(trackers.items.map((t) => t.spec.source.path).sort()).toEqual([
      'base/deployment.yaml',
      'base/kustomization.yaml',
      'base/service.yaml',
      'components/monitoring/service-monitor-config.yaml',
    ]);
  });
});
