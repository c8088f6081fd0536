import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { kubeClientFromFile } from '../../../lib/kube/loadKubeConfig';
import { defaultRequestPolicy } from '../../../lib/kube/requestPolicy';
import { runReconcile } from '../../../lib/lambda/invokeReconcile';
import { createLambdaClient } from '../../../lib/lambda/lambdaClient';
import { reconcileAndStartNext } from '../../../lib/lambda/reconcileAndStartNext';
import { defaultLeaseNamespace } from '../../../lib/lease/leaseTarget';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import { type OfflineStack, startServerlessOffline } from '../../../lib/localstack/serverlessOffline';
import { provisionWebhookIdentity } from '../../../lib/localstack/webhookIdentity';
import { createTelemetry } from '../../../lib/observability/telemetry';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import { startBreakableProxy } from '../../support/breakableProxy';
import { eventually, freshNamespace, kubeClient, kubeconfig, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createClusterGitTrack,
  getLive,
  includeNamespaced,
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

/**
 * A track applied through the function with one ConfigMap (`stale`, in the first of three fresh
 * namespaces), then a commit that removes it and adds three ConfigMaps in each namespace: nine
 * objects, above the stack's threshold of four.
 */
async function stagedNineObjects(prefix: string) {
  const namespaces = [
    await freshNamespace(client, prefix),
    await freshNamespace(client, prefix),
    await freshNamespace(client, prefix),
  ].sort();
  const ns0 = namespaces[0] as string;
  const repo = createRepo(server, uniqueName(prefix));
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
  return { namespaces, ns0, track, fn, head };
}

describe('shards through the reconcile function', () => {
  it('one invocation fans out to three shard invocations, and one run prunes', async () => {
    const { namespaces, ns0, track, fn, head } = await stagedNineObjects('shards-fn');
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
    // to finish the completing run, each in the process that had the commit parsed. An invocation
    // ends a moment after its last run logged, so its end is waited for.
    await eventually('the third invocation finished', async () => stack.finished('reconcile') >= 3);
    expect(stack.finished('reconcile')).toBe(3);
    console.log(
      `sharded apply through serverless-offline: coordinator → 3 shards → prune in ${converged} ms`,
    );
  }, 240_000);

  it('a shard the coordinator takes on that loses the API server is invoked on its own, and the track completes', async () => {
    const { namespaces, ns0, track, fn, head } = await stagedNineObjects('shards-lost');

    // The coordinator runs in this process, its client reaching the API server through a proxy that
    // breaks as the shard it takes on starts: that run fails on the cluster, and must be invoked on
    // its own (where the function's client reaches the API server) instead of being lost.
    const proxy = await startBreakableProxy(kubeconfig());
    const proxied = await kubeClientFromFile(proxy.kubeconfigIn(identityDir), {
      policy: { ...defaultRequestPolicy, attempts: 1 },
    });
    const telemetry = createTelemetry('reconcile');
    const addMetric = telemetry.metrics.addMetric.bind(telemetry.metrics);
    telemetry.metrics.addMetric = (name, unit, value) => {
      if (name === 'runsTakenOn') proxy.break();
      return addMetric(name, unit, value);
    };
    const warned: Array<{ message: string; next?: unknown }> = [];
    const warn = telemetry.logger.warn.bind(telemetry.logger);
    telemetry.logger.warn = (message: unknown, ...rest: unknown[]) => {
      warned.push({ message: String(message), ...(rest[0] as { next?: unknown }) });
      warn(message as string, ...(rest as []));
    };
    const before = stack.finished('reconcile');
    try {
      const out = await reconcileAndStartNext(
        {
          client: proxied,
          config: { ...includeNamespaced, incrementalMaxFiles: 0 },
          github: undefined,
          settings: {
            leaseNamespace: defaultLeaseNamespace,
            leaseTtlSeconds: 30,
            reserveMs: 0,
            timeBudget: { marginMs: 0 },
            shards: { threshold: 4, fanout: 2, pendingMs: 60_000 },
          },
          ...telemetry,
          lambda,
          functionName: fn,
          inlineMinMs: 0,
        },
        { track, mode: 'apply', reason: 'push' },
        { awsRequestId: uniqueName('coordinator'), getRemainingTimeInMillis: () => 600_000 },
      );
      expect(out).toMatchObject({ result: 'Continuing', commit: head });
      expect(proxy.broken).toBe(true);
      const taken = (out as ReconcileSummary).shards?.started[0];
      expect(warned.filter((w) => w.message === 'a run taken on failed: invoked on its own')).toEqual([
        expect.objectContaining({ next: `shard ${taken} of ${head}` }),
      ]);
    } finally {
      await proxied.close();
      await proxy.close();
    }
    await eventually(
      'the track applied at the head',
      async () => (await trackStatus(client, track)).lastAppliedCommit === head,
      120_000,
    );
    expect(await getLive(client, configMaps, 'stale', ns0)).toBeUndefined();
    for (const ns of namespaces)
      for (const n of ['a', 'b', 'c']) expect(await getLive(client, configMaps, `cm-${n}`, ns)).toBeDefined();
    await eventually('every run logged', async () => logged(track.name).length >= 5);
    const runs = logged(track.name);
    // Every shard, the one invoked again included, ran in the function, and one run pruned.
    const shardRuns = runs.filter((r) => r.message === 'shard reconciled');
    expect(shardRuns.map((r) => [r.reason, r.result]).sort()).toEqual(
      namespaces.map((ns) => [`shard ${ns} of ${head}`, 'Succeeded']),
    );
    const pruning = runs.filter((r) => (r.counts?.pruned ?? 0) > 0);
    expect(pruning.map((r) => [r.reason, r.counts?.pruned])).toEqual([[`shards of ${head} done`, 1]]);
    expect(stack.finished('reconcile')).toBeGreaterThan(before);
  }, 240_000);
});
