import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { runReconcile } from '../../../lib/lambda/invokeReconcile';
import { createLambdaClient } from '../../../lib/lambda/lambdaClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import { type OfflineStack, startServerlessOffline } from '../../../lib/localstack/serverlessOffline';
import { provisionWebhookIdentity } from '../../../lib/localstack/webhookIdentity';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import { eventually, freshNamespace, kubeClient, kubeconfig, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createClusterGitTrack,
  getLive,
  trackStatus,
  yamlOf,
} from '../../support/engine';

// A sharded apply through the reconcile function as deployed (serverless-offline's Lambda Invoke
// endpoint, the real control plane and git server): one invocation coordinates, the function
// invokes one run per shard with keys only (taking the first on itself), and the run after the last
// shard's success prunes, once.

let client: KubeClient;
let server: GitServer;
let stack: OfflineStack;
let lambda: LambdaClient;
let identityDir: string;

interface Logged {
  message?: string;
  result?: string;
  reason?: string;
  commit?: string;
  counts?: { pruned: number; applied: number };
  track?: { name: string };
}

const logged = (name: string) =>
  stack
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{"level"') && line.endsWith('}'))
    .map((line) => JSON.parse(line) as Logged)
    .filter(
      (r) => (r.message === 'reconciled' || r.message === 'shard reconciled') && r.track?.name === name,
    );

beforeAll(async () => {
  client = await kubeClient();
  server = await startGitServer();
  identityDir = mkdtempSync(join(tmpdir(), 'lightkeeper-shards-'));
  const webhookIdentity = await provisionWebhookIdentity(client, kubeconfig(), identityDir);
  stack = await startServerlessOffline({
    kubeconfig: kubeconfig(),
    webhookKubeconfig: webhookIdentity.kubeconfig,
    webhookSecret: 'shards-secret',
    // A push of a few files would be applied incrementally (only those files, never sharded).
    env: {
      LIGHTKEEPER_SHARD_THRESHOLD: '4',
      LIGHTKEEPER_SHARD_FANOUT: '2',
      LIGHTKEEPER_INCREMENTAL_MAX_FILES: '0',
    },
  });
  lambda = createLambdaClient({ endpoint: stack.lambdaEndpoint });
}, 600_000);

afterAll(async () => {
  lambda?.destroy();
  await stack?.stop();
  await server?.close();
  await client?.close();
  if (identityDir) rmSync(identityDir, { recursive: true, force: true });
});

describe('shards through the reconcile function', () => {
  it('one invocation fans out to three shard invocations, and one run prunes', async () => {
    const namespaces = [
      await freshNamespace(client, 'shards-fn'),
      await freshNamespace(client, 'shards-fn'),
      await freshNamespace(client, 'shards-fn'),
    ].sort();
    const ns0 = namespaces[0] as string;
    const repo = createRepo(server, uniqueName('shards-fn'));
    commit(
      repo,
      { 'stale.yaml': yamlOf({ ...configMap('stale'), metadata: { name: 'stale', namespace: ns0 } }) },
      'stale',
    );
    const track = await createClusterGitTrack(client, {
      repository: repo.url,
      reference: 'main',
      defaultNamespace: ns0,
    });
    const fn = stack.functionName('reconcile');
    expect(await runReconcile(lambda, fn, { track, mode: 'apply', reason: 'first' })).toMatchObject({
      result: 'Succeeded',
    });
    const files: Record<string, string | null> = { 'stale.yaml': null };
    for (const ns of namespaces)
      files[`${ns}.yaml`] = yamlOf(
        ...['a', 'b', 'c'].map((n) => ({
          ...configMap(`cm-${n}`),
          metadata: { name: `cm-${n}`, namespace: ns },
        })),
      );
    const head = commit(repo, files, 'nine objects in three namespaces');
    const started = Date.now();
    const coordinator = (await runReconcile(lambda, fn, {
      track,
      mode: 'apply',
      reason: 'push',
    })) as ReconcileSummary;
    expect(coordinator).toMatchObject({ result: 'Continuing', commit: head });
    expect(coordinator.shards).toMatchObject({ total: 3, started: [namespaces[0], namespaces[1]] });
    await eventually(
      'the track applied at the head',
      async () => (await trackStatus(client, track)).lastAppliedCommit === head,
      120_000,
    );
    const converged = Date.now() - started;
    expect(await getLive(client, configMaps, 'stale', ns0)).toBeUndefined();
    await eventually('every run logged', async () => logged(track.name).length >= 6);
    const runs = logged(track.name);
    const shardRuns = runs.filter((r) => r.message === 'shard reconciled');
    expect(shardRuns.map((r) => r.reason).sort()).toEqual(namespaces.map((ns) => `shard ${ns} of ${head}`));
    expect(shardRuns.every((r) => r.result === 'Succeeded' && r.counts?.pruned === 0)).toBe(true);
    // Exactly one run pruned: the continuation started by the last shard's success.
    const pruning = runs.filter((r) => (r.counts?.pruned ?? 0) > 0);
    expect(pruning.map((r) => [r.reason, r.counts?.pruned])).toEqual([[`shards of ${head} done`, 1]]);
    // Six runs in three invocations (the first commit's, the coordinator's, the second shard's):
    // the coordinator took the first shard on, the first shard to finish the third, and the last
    // to finish the completing run, each in the process that had the commit parsed.
    expect(stack.finished('reconcile')).toBe(3);
    console.log(
      `sharded apply through serverless-offline: coordinator → 3 shards → prune in ${converged} ms`,
    );
  }, 240_000);
});
