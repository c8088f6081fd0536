// One lightkeeper process, as a reconcile function's container would be: a first apply, then a
// no-op reconcile of the same commit, reusing the clone. Runs apart from the benchmark driver so
// its peak RSS is the engine's, not the git server's or the generator's. Prints a ChildResult as
// its last line.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { KubeClient } from '../lib/kube/kubeClient';
import { kubeClientFromFile } from '../lib/kube/loadKubeConfig';
import { commit } from '../lib/localstack/gitRepo';
import { reconcile } from '../lib/reconcile/reconcile';
import type { ReconcilePhase } from '../lib/reconcile/reconcileDeps';
import {
  type ChildResult,
  type ChildRun,
  continueLine,
  firstAppliedMarker,
  medianRun,
} from './childProtocol';
import { profiled } from './cpuProfile';
import { countRequests } from './requestCounter';

const [kubeconfig = '', trackName = '', concurrencyArg = ''] = process.argv.slice(2);
if (!kubeconfig || !trackName || !concurrencyArg) {
  throw new Error('usage: reconcileChild.ts KUBECONFIG CLUSTERGITTRACK CONCURRENCY');
}
const concurrency = Number.parseInt(concurrencyArg, 10);
const gitCacheRoot = mkdtempSync(join(tmpdir(), 'lk-bench-git-'));
const mb = (kb: number) => Math.round(kb / 1024);
const baselineRssMb = mb(process.resourceUsage().maxRSS);

async function timed(client: KubeClient): Promise<ChildRun> {
  const { counts: requests, ms: requestMs } = countRequests(client);
  const phasesMs: ChildRun['phasesMs'] = {};
  const started = Date.now();
  const cpuBefore = process.cpuUsage();
  let phase: ReconcilePhase | undefined;
  let phaseStarted = started;
  // Where the memory goes: the highest resident set sampled while each phase ran.
  const peakRssMbByPhase: ChildRun['peakRssMbByPhase'] = {};
  const sampleRss = () => {
    const key = phase ?? 'start';
    const rss = Math.round(process.memoryUsage.rss() / 1048576);
    if (rss > (peakRssMbByPhase[key] ?? 0)) peakRssMbByPhase[key] = rss;
  };
  const sampler = setInterval(sampleRss, 25);
  const onProgress = (next: ReconcilePhase) => {
    if (next === phase) return;
    sampleRss();
    if (phase) phasesMs[phase] = Date.now() - phaseStarted;
    phase = next;
    phaseStarted = Date.now();
  };
  const { changes, ...summary } = await reconcile(
    {
      client,
      concurrency,
      gitCacheRoot,
      onProgress,
      config: { gitTrackMode: 'Enabled', clusterGitTrackMode: 'IncludeNamespaced' },
    },
    { track: { kind: 'ClusterGitTrack', name: trackName }, reason: 'benchmark' },
  );
  sampleRss();
  clearInterval(sampler);
  if (phase) phasesMs[phase] = Date.now() - phaseStarted;
  const actions: Record<string, number> = {};
  for (const c of changes) actions[c.action] = (actions[c.action] ?? 0) + 1;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    summary: { ...summary, actions },
    wallMs: Date.now() - started,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    phasesMs,
    peakRssMbByPhase,
    requests,
    requestMs,
  };
}

/** Resolves on the first line of stdin equal to `expected`. */
async function nextLine(expected: string): Promise<void> {
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line.trim() !== expected) continue;
    lines.close();
    process.stdin.destroy();
    return;
  }
  throw new Error(`stdin closed before "${expected}"`);
}

// Each run gets its own client so its request counts are its own; both share the clone cache.
const run = async (name: string) => {
  const client = await kubeClientFromFile(kubeconfig, { connections: concurrency });
  try {
    return await profiled(process.env.LK_BENCH_PROFILE_DIR || undefined, name, () => timed(client));
  } finally {
    await client.close();
  }
};
const first = await run('first');
console.log(firstAppliedMarker);
// LK_BENCH_PAUSE: the driver lets the control plane settle first (the controllers roll out what
// the first apply created), as it does before every measurement.
if (process.env.LK_BENCH_PAUSE) await nextLine(continueLine);
// LK_BENCH_NOOPS: that many no-ops back to back, the one of median wall time reported as `noop`. A
// no-op of 2,000 objects takes ~0.3 s, and one sample on this shared machine moves by half of that.
const noopRuns = Math.max(1, Number.parseInt(process.env.LK_BENCH_NOOPS || '1', 10));
const noops: ChildRun[] = [];
for (let i = 0; i < noopRuns; i++) noops.push(await run(noopRuns === 1 ? 'noop' : `noop-${i + 1}`));
const noop = medianRun(noops);
// LK_BENCH_CHANGE ({dir, files}): then commit one changed object and reconcile again, as a push would.
let change: ChildRun | undefined;
if (process.env.LK_BENCH_CHANGE) {
  const { dir, files } = JSON.parse(process.env.LK_BENCH_CHANGE) as {
    dir: string;
    files: Record<string, string>;
  };
  commit({ name: 'bench', dir, url: '' }, files, 'one object changed');
  change = await run('change');
}
rmSync(gitCacheRoot, { recursive: true, force: true });
const result: ChildResult = {
  concurrency,
  baselineRssMb,
  maxRssMb: mb(process.resourceUsage().maxRSS),
  first,
  noop,
  noopWallsMs: noops.map((r) => r.wallMs),
  ...(change ? { change } : {}),
};
console.log(JSON.stringify(result));
