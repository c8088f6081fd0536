// Sharded against whole (issue 23): the same first apply through the reconcile function as deployed
// (serverless-offline's Lambda Invoke endpoint, its functions in worker threads), once with sharding
// off and once with a threshold below the repository's size, each on a fresh copy of the repository
// and a fresh stack (the callers give each run a control plane of its own: onFreshPlane in
// bench/benchEnv.ts). Timed from the RequestResponse invoke until the track's status says the commit
// is applied: for the sharded run that is the coordinator, every shard run it and they started, and
// the completing run that prunes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ControlPlane } from '../lib/controlplane/controlPlane';
import type { KubeClient } from '../lib/kube/kubeClient';
import { runReconcile } from '../lib/lambda/invokeReconcile';
import { createLambdaClient } from '../lib/lambda/lambdaClient';
import { commit, createRepo, git } from '../lib/localstack/gitRepo';
import type { GitServer } from '../lib/localstack/gitServer';
import { startServerlessOffline } from '../lib/localstack/serverlessOffline';
import { provisionWebhookIdentity } from '../lib/localstack/webhookIdentity';
import type { ShardsRecord } from '../lib/track/shardsStatus';
import { type RequestCounts, readRequestCounts, requestsBetween } from './apiRequests';
import { createTrack, withCpu } from './benchEnv';
import type { CpuSample } from './cpuTime';
import { generateRepo } from './generateRepo';

export interface InvokedApply {
  /** From the invoke until the track's status named the commit applied. */
  wallMs: number;
  /** Invocations of the reconcile function: 1 whole; sharded, fewer than its runs (runs taken on). */
  invocations: number;
  shardRuns: number;
  /** Shards in status.shards (0 whole). */
  shards: number;
  /** status.shards.perShard of the sharded run. */
  perShard: number | null;
  cpu: CpuSample;
  /** Requests the API server served in that time (by verb and resource, at least 10 each). */
  requests: RequestCounts;
}

export interface ShardedApplyOptions {
  client: KubeClient;
  plane: ControlPlane;
  server: GitServer;
  objects: number;
  threshold: number;
  fanout: number;
  /** Waits for a quiet control plane before each run (the benchmark's settle). */
  settle: (before: string) => Promise<void>;
  log: (line: string) => void;
}

const trackPath = (name: string) => `/apis/lightkeeper.dev/v1alpha1/clustergittracks/${name}`;

/** One of the two first applies, on `options.plane` as it is. */
export async function measureInvokedApply(
  options: ShardedApplyOptions,
  which: 'whole' | 'sharded',
): Promise<InvokedApply> {
  const identityDir = mkdtempSync(join(tmpdir(), 'lightkeeper-bench-shards-'));
  try {
    const identity = await provisionWebhookIdentity(options.client, options.plane.kubeconfig, identityDir);
    // The function's temp dir (its clone cache) inside this one, so it goes away with it.
    const functionTmp = join(identityDir, 'function-tmp');
    mkdirSync(functionTmp);
    return which === 'whole'
      ? await invokedFirstApply(options, 'sw', 0, identity.kubeconfig, functionTmp)
      : await invokedFirstApply(options, 'ss', options.threshold, identity.kubeconfig, functionTmp);
  } finally {
    rmSync(identityDir, { recursive: true, force: true });
  }
}

async function invokedFirstApply(
  options: ShardedApplyOptions,
  prefix: string,
  threshold: number,
  webhookKubeconfig: string,
  functionTmp: string,
): Promise<InvokedApply> {
  const { client, plane, log } = options;
  const label = threshold > 0 ? `sharded (threshold ${threshold}, fan-out ${options.fanout})` : 'whole';
  const stack = await startServerlessOffline({
    kubeconfig: plane.kubeconfig,
    webhookKubeconfig,
    webhookSecret: `bench-${prefix}`,
    env: {
      LIGHTKEEPER_SHARD_THRESHOLD: String(threshold),
      LIGHTKEEPER_SHARD_FANOUT: String(options.fanout),
      TMPDIR: functionTmp,
    },
  });
  const lambda = createLambdaClient({ endpoint: stack.lambdaEndpoint });
  try {
    const repo = createRepo(options.server, prefix);
    const head = commit(
      repo,
      generateRepo(prefix, { objects: options.objects, layout: 'file-per-object' }),
      'x',
    );
    git(repo, 'repack', '-adq');
    const name = `bench-${prefix}`;
    await createTrack(client, name, repo);
    const track = { kind: 'ClusterGitTrack' as const, name };
    await options.settle(`invoked first apply, ${label}`);
    log(`first apply of ${options.objects} objects through the reconcile function, ${label}`);
    const fn = stack.functionName('reconcile');
    const requestsBefore = readRequestCounts(plane);
    const [wallMs, cpu] = await withCpu(
      plane,
      async () => {
        const started = Date.now();
        const out = await runReconcile(lambda, fn, { track, mode: 'apply', reason: 'bench' });
        if (!('result' in out) || !['Succeeded', 'Continuing'].includes(out.result))
          throw new Error(`the ${label} first apply: ${JSON.stringify(out).slice(0, 2000)}`);
        for (;;) {
          const { status } = await client.get<{
            status?: { lastAppliedCommit?: string; shards?: ShardsRecord };
          }>(trackPath(name));
          if (status?.lastAppliedCommit === head) return Date.now() - started;
          const failed = status?.shards?.shards.find((s) => s.state === 'failed');
          if (failed)
            throw new Error(`the ${label} first apply: shard ${failed.id} failed: ${failed.message}`);
          if (Date.now() - started > 1_800_000)
            throw new Error(`the ${label} first apply took over 30 minutes`);
          await sleep(100);
        }
      },
      // The function's CPU: serverless-offline's process, whose worker threads run every invocation.
      { function: stack.pid },
    );
    const requests = requestsBetween(requestsBefore, readRequestCounts(plane), 10);
    const { status } = await client.get<{ status?: { shards?: ShardsRecord } }>(trackPath(name));
    // The completing run writes the status just before it logs and returns: let every run log.
    const runs = threshold > 0 ? (status?.shards?.shards.length ?? 0) + 2 : 1;
    const logged = () =>
      stack
        .output()
        .split('\n')
        .filter((l) => /"message":"(shard )?reconciled"/.test(l)).length;
    for (let i = 0; i < 100 && logged() < runs; i++) await sleep(100);
    await sleep(500);
    const output = stack.output();
    // LK_BENCH_SHARD_LOG=<dir>: each stack's function log, for a look at the runs' own timings.
    if (process.env.LK_BENCH_SHARD_LOG)
      writeFileSync(join(process.env.LK_BENCH_SHARD_LOG, `${prefix}.log`), output);
    const lines = output.split('\n');
    const shardRuns = lines.filter((l) => l.includes('"message":"shard reconciled"')).length;
    const invocations = stack.finished('reconcile');
    log(`${label}: ${wallMs} ms, ${invocations} invocations, ${shardRuns} shard runs`);
    // Suspended, so that nothing reconciles this copy again while the next runs.
    await client.request('PATCH', trackPath(name), {
      body: { spec: { suspend: true } },
      contentType: 'application/merge-patch+json',
    });
    return {
      wallMs,
      invocations,
      shardRuns,
      shards: threshold > 0 ? (status?.shards?.shards.length ?? 0) : 0,
      perShard: threshold > 0 ? (status?.shards?.perShard ?? null) : null,
      cpu,
      requests,
    };
  } finally {
    lambda.destroy();
    await stack.stop();
  }
}
