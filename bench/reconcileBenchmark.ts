// The reconcile benchmark (issue 9): one run, one table. On a generated repository (2,000 objects,
// one file each; `--objects N` for the scale curve) it measures, one after another and each on a
// control plane that holds nothing else: the first apply by kubectl --server-side, by "the limit"
// (one raw server-side apply per object at lightkeeper's concurrency), by lightkeeper (its reconcile
// bundled as deployed, in its own process) and by Flux's apply engine (fluxcd/pkg/ssa as
// kustomize-controller drives it, bench/flux-engine); then lightkeeper's and Flux's no-op and
// one-object change; clone + read next to `git clone --depth 1`; push to applied through the
// webhook and a cold reconcile function; and the cold start of each packaged function.
//
//   npm run bench                                # 2,000 objects
//   npm run bench -- --objects 500 --json /tmp/bench-500.json
//   npm run bench -- --skip flux,push            # leave out parts (their figures are null, with a note)
//   npm run bench -- --noops 5                   # the no-op's median of 5 back to back (default 3)
//   npm run bench -- --profile /tmp/prof         # CPU profiles of lightkeeper's reconciles (tsx: RSS not comparable)
//   npm run bench -- --shard-threshold 1000 --shard-fanout 8   # the sharded first apply's settings (default: half the objects, at most 5,000; 8)
//   npm run bench -- --scale 2000,8000,20000,50000 --skip kubectl,limit,flux,clone,kustomize,push,coldstart,shards
//                                                # also lightkeeper alone at each size: the JSON's scale[] rows
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ControlPlane } from '../lib/controlplane/controlPlane';
import type { KubeClient } from '../lib/kube/kubeClient';
import { commit, createRepo, git } from '../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../lib/localstack/gitServer';
import { defaultShardSettings } from '../lib/reconcile/shardRecord';
import { createTrack, onFreshPlane, pidsOf, withCpu, writeTree } from './benchEnv';
import { type BenchResult, emptyResult, type ScaleRow, seconds } from './benchResult';
import { benchRows, formatText } from './benchTable';
import { bundleBenchScript, bundleReconcileChild } from './bundleChild';
import { changeOneConfigMap } from './changeOneObject';
import type { ChildResult } from './childProtocol';
import { measureCloneRead } from './cloneRead';
import { measureColdStarts } from './coldStart';
import { type CpuSample, cpuBetween, sampleCpu } from './cpuTime';
import { ensureFluxEngine, fluxSsaVersion, runFluxEngine } from './fluxEngine';
import { generateRepo } from './generateRepo';
import { kubectlApply } from './kubectlApply';
import { measureKustomizeRender } from './kustomizeRender';
import { reconcileNodeArgs } from './lambdaNodeArgs';
import { type PackagedFunctions, packageFunctions } from './packagedFunctions';
import { measurePushToApplied } from './pushToApplied';
import { waitForQuietPlane } from './quietPlane';
import { rawApply } from './rawApply';
import { formatCpu, formatProfile } from './report';
import { type ChildCommand, runReconcileChild } from './runChild';
import { scaleRows } from './scaleTable';
import { measureInvokedApply } from './shardedApply';

/**
 * 16 vs 32 (three runs on 2 shared cores): within the noise; the API server's CPU is the limit,
 * not the number of requests in flight.
 */
const defaultConcurrency = 32;
const parts = ['kubectl', 'limit', 'flux', 'clone', 'kustomize', 'push', 'coldstart', 'shards'] as const;

const log = (line: string) => console.error(`[bench] ${line}`);

const { values } = parseArgs({
  options: {
    objects: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: String(defaultConcurrency) },
    json: { type: 'string' },
    skip: { type: 'string', default: '' },
    profile: { type: 'string' },
    scale: { type: 'string', default: '' },
    'shard-threshold': { type: 'string' },
    'shard-fanout': { type: 'string', default: '8' },
    noops: { type: 'string', default: '3' },
  },
});
const objects = Number.parseInt(values.objects, 10);
const concurrency = Number.parseInt(values.concurrency, 10);
const noops = Number.parseInt(values.noops, 10);
if (!(noops >= 1)) throw new Error('--noops: at least 1');
const skip = new Set(values.skip.split(',').filter(Boolean));
for (const s of skip)
  if (!(parts as readonly string[]).includes(s)) throw new Error(`--skip: unknown part ${s}`);
if (!(objects >= 200)) throw new Error('--objects: at least 200');
const scaleSizes = values.scale
  .split(',')
  .filter(Boolean)
  .map((n) => Number.parseInt(n, 10));
if (scaleSizes.some((n) => !(n >= 200))) throw new Error('--scale: sizes of at least 200, comma-separated');
// Half the objects (two shards), but never shards larger than the function's default (a shard out of
// time goes on in a new run of itself, but on 2 cores shards of 25,000 made the local stack crawl).
const defaultThreshold = Math.min(Math.ceil(objects / 2), defaultShardSettings.threshold);
const repoOf = (prefix: string) => generateRepo(prefix, { objects, layout: 'file-per-object' });

/** The plane of the part running (one at a time): stopped on Ctrl-C too. */
let runningPlane: ControlPlane | undefined;

const childTs = fileURLToPath(new URL('./reconcileChild.ts', import.meta.url));

/** Where each reconcile of a child's process reached its highest resident set, phase by phase. */
const peakRssByRun = (r: ChildResult) => ({
  first: r.first.peakRssMbByPhase,
  noop: r.noop.peakRssMbByPhase,
  change: r.change?.peakRssMbByPhase,
});

/** Profiling needs readable function names and file paths: run the sources through tsx then. */
function childCommand(bundle: string, change: ChildCommand['change']): ChildCommand {
  // Started as Lambda's runtime starts the reconcile function: V8's heap sized by its memory.
  const heap = reconcileNodeArgs();
  if (!values.profile) return { script: [...heap, bundle], change, noops };
  mkdirSync(values.profile, { recursive: true });
  return { script: [...heap, '--import', 'tsx', childTs], profileDir: values.profile, change, noops };
}

async function main() {
  const result: BenchResult = emptyResult(objects);
  const load = () => loadavg().map((l) => Math.round(l * 10) / 10);
  result.run = {
    date: new Date().toISOString(),
    machine: `${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
    cpus: availableParallelism(),
    loadAtStart: load(),
    load: load(),
    concurrency,
    fluxEngine: `github.com/fluxcd/pkg/ssa ${fluxSsaVersion}, concurrency 4, QPS 50 / burst 300`,
    order: [],
  };
  const note = (key: string, why: string) => {
    result.notes[key] = why;
  };
  log(`${availableParallelism()} CPUs, load ${load().join(' ')}; ${objects} objects`);
  const cleanup: Array<() => Promise<void> | void> = [];
  const fluxBinary = skip.has('flux') ? undefined : await ensureFluxEngine(log);
  let packaged: PackagedFunctions | undefined;
  if (!skip.has('push') || !skip.has('coldstart')) {
    log('npm run package (the three functions as deployed)');
    packaged = packageFunctions();
    cleanup.push(() => packaged?.remove());
  }
  if (packaged && !skip.has('coldstart')) {
    log("cold starts: import of each packaged function, and a bare node -e ''");
    const cold = measureColdStarts(packaged.bundles);
    result.coldStartMs = { ...cold.importMs, node: Math.round(cold.nodeMs) };
    for (const k of ['webhook', 'reconcile', 'sweep'] as const)
      result.coldStartMs[k] = Math.round(cold.importMs[k]);
    result.details.coldStartProcessMs = cold.processMs;
  }
  const bundle = await bundleReconcileChild();
  const coldChild = await bundleBenchScript('coldReconcileChild');
  cleanup.push(() => rmSync(dirname(bundle), { recursive: true, force: true }));
  cleanup.push(() => rmSync(dirname(coldChild), { recursive: true, force: true }));

  try {
    const server: GitServer = await startGitServer();
    cleanup.push(() => server.close());
    const cpu: Array<[string, CpuSample]> = [];
    const quietWaits: Record<string, number> = {};
    result.details.quietWaitsS = quietWaits;
    const settle = async (before: string, on: ControlPlane) => {
      const { waitedMs, quiet } = await waitForQuietPlane(on, log);
      quietWaits[before] = seconds(waitedMs);
      log(`control plane quiet after ${seconds(waitedMs)} s`);
      if (!quiet) note(`quiet.${before}`, 'the control plane was still busy when this measurement started');
    };

    // Every engine's first apply on a control plane that holds nothing else, one plane at a time
    // (lightkeeper's also serves push to applied). On one shared plane each run paid
    // for the ones before it: a first apply of lightkeeper's took 9.1-9.4 s on a fresh plane and
    // 12.9-13.5 s on one holding 4,000 objects (bench/abReconcile.ts, 3 rounds), the limit's 3.8 s
    // before lightkeeper and 5.4 s after it, while kubectl's, one request at a time, did not move.
    const onOwnPlane = <T>(label: string, fn: (fresh: ControlPlane, client: KubeClient) => Promise<T>) =>
      onFreshPlane(log, label, fn, (p) => {
        runningPlane = p;
      });
    // kubectl and the limit run both before and after lightkeeper, and each figure is the mean of
    // the two: this shared machine's speed drifts by ±10% within minutes, and a single before-after
    // pair would carry that drift into lightkeeper's ratios (A-B-A).
    const kubectlRuns: number[] = [];
    const limitRuns: number[] = [];
    const measureKubectl = (copy: string, when: string) =>
      onOwnPlane(`kubectl ${when} lightkeeper`, async (fresh) => {
        const dir = writeTree(repoOf(copy));
        try {
          await settle(`kubectl ${when}`, fresh);
          log(`kubectl apply --server-side of ${objects} objects (${when} lightkeeper)`);
          const [{ wallMs }, used] = await withCpu(fresh, () =>
            kubectlApply(fresh.kubectl, fresh.kubeconfig, dir),
          );
          kubectlRuns.push(seconds(wallMs));
          cpu.push([`kubectl apply --server-side, ${when} lightkeeper`, used]);
          result.run.order.push('kubectl');
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    const measureLimit = (copy: string, when: string) =>
      onOwnPlane(`the limit ${when} lightkeeper`, async (fresh) => {
        await settle(`limit ${when}`, fresh);
        log(
          `the limit: one raw server-side apply per object, concurrency ${concurrency} (${when} lightkeeper)`,
        );
        const [{ wallMs }, used] = await withCpu(fresh, () =>
          rawApply(fresh.kubeconfig, repoOf(copy), concurrency),
        );
        limitRuns.push(seconds(wallMs));
        cpu.push([`the limit, ${when} lightkeeper (raw applies; client not counted: in this process)`, used]);
        result.run.order.push('limit');
      });
    if (!skip.has('kubectl')) await measureKubectl('kc', 'before');
    else note('firstApply.kubectl', 'skipped (--skip kubectl)');
    if (!skip.has('limit')) await measureLimit('raw', 'before');
    else note('firstApply.limit', 'skipped (--skip limit)');

    // lightkeeper: first apply, no-op, one object changed, in one process (as a warm container), on
    // a repository of its own (`prefix` renames its namespaces and cluster-scoped objects).
    const measureLightkeeper = async (
      n: number,
      prefix: string,
      onFirstApplied: () => void,
      on: { plane: ControlPlane; client: KubeClient },
      onSettled: () => void = () => {},
    ) => {
      const files = generateRepo(prefix, { objects: n, layout: 'file-per-object' });
      const repo = createRepo(server, prefix);
      commit(repo, files, `${n} objects`);
      // Served packed, as a hosting service keeps a repository: from loose objects, git upload-pack
      // deltifies and recompresses all 2,000 files on every cold fetch (~0.15 s of server time).
      git(repo, 'repack', '-adq');
      await createTrack(on.client, `bench-${prefix}`, repo);
      await settle(prefix === 'lk' ? 'lightkeeper' : `scale ${n}`, on.plane);
      onSettled();
      log(
        `lightkeeper reconcile of ${n} objects, concurrency ${concurrency}: first apply, no-op, one object changed`,
      );
      const change = { dir: repo.dir, files: changeOneConfigMap(files, 'changed-by-commit').files };
      const run = await runReconcileChild(
        childCommand(bundle, change),
        on.plane.kubeconfig,
        `bench-${prefix}`,
        concurrency,
        async () => {
          onFirstApplied();
          await settle(prefix === 'lk' ? 'lightkeeper no-op' : `scale ${n} no-op`, on.plane);
        },
      );
      if (run.first.summary.result !== 'Succeeded' || run.first.summary.actions.created !== n) {
        throw new Error(
          `first apply did not create every object:\n${formatProfile('first apply', run.first)}`,
        );
      }
      return { run, files, repo };
    };
    // From the quiet plane on: the wait for it is not lightkeeper's. Push to applied then runs on
    // the same plane, over the same track and repository.
    let before: CpuSample = {};
    let during: CpuSample = {};
    const { run: lk, repo } = await onOwnPlane('lightkeeper', async (lkPlane, lkClient) => {
      const measured = await measureLightkeeper(
        objects,
        'lk',
        () => {
          during = cpuBetween(before, sampleCpu(pidsOf(lkPlane)));
        },
        { plane: lkPlane, client: lkClient },
        () => {
          before = sampleCpu(pidsOf(lkPlane));
        },
      );
      if (packaged && !skip.has('push')) {
        await settle('push', lkPlane);
        const p = await measurePushToApplied({
          client: lkClient,
          kubeconfig: lkPlane.kubeconfig,
          repo: measured.repo,
          change: changeOneConfigMap(measured.files, `pushed-${Date.now()}`),
          reconcileBundle: packaged.bundles.reconcile,
          coldChild,
          log,
        });
        result.pushToApplied = {
          total: seconds(p.totalMs),
          webhook: seconds(p.webhookMs),
          init: seconds(p.initMs),
          fetch: seconds(p.fetchMs),
          parse: seconds(p.parseMs),
          apply: seconds(p.applyMs),
          invoke: seconds(p.invokeMs),
          prepare: seconds(p.prepareMs),
          list: seconds(p.listMs),
          status: seconds(p.statusMs),
        };
        result.details.pushRequests = p.requests;
      } else note('pushToApplied', 'skipped (--skip push)');
      return measured;
    });
    const { first, noop, change } = lk;
    cpu.push(['lightkeeper first apply', { ...during, client: first.cpuMs }]);
    result.run.order.push('lightkeeper');
    result.firstApply.lightkeeper = seconds(first.wallMs);
    result.noop.lightkeeper = seconds(noop.wallMs);
    result.details.lightkeeperNoopRunsS = (lk.noopWallsMs ?? [noop.wallMs]).map((ms) => seconds(ms));
    result.noop.lightkeeperWrites = noop.summary.writes.objects;
    result.details.lightkeeperNoopStatusWrites = noop.summary.writes.status;
    result.details.lightkeeperNoopHealthWrites = noop.summary.writes.health;
    result.details.lightkeeperNoopDryRuns = noop.requests['PATCH dry-run (child)'] ?? 0;
    result.details.lightkeeperFirstApplyDryRuns = first.requests['PATCH dry-run (child)'] ?? 0;
    if (change) result.oneChange.lightkeeper = seconds(change.wallMs);
    result.details.lightkeeperOneChangeApplyPhase = change?.phasesMs.apply ?? null;
    if (values.profile) {
      note('peakRssMb', 'not comparable: --profile runs the reconcile through tsx');
    } else {
      result.peakRssMb = lk.maxRssMb;
      result.rssPer1000Mb = Math.round(((lk.maxRssMb - lk.baselineRssMb) / (objects / 1000)) * 10) / 10;
      result.details.runtimeRssMb = lk.baselineRssMb;
    }
    const scaleRow = (n: number, r: ChildResult): ScaleRow => ({
      objects: n,
      firstApply: seconds(r.first.wallMs),
      noop: seconds(r.noop.wallMs),
      oneChange: r.change ? seconds(r.change.wallMs) : null,
      peakRssMb: values.profile ? null : r.maxRssMb,
      noopWrites: r.noop.summary.writes.objects,
    });
    // The scale curve: each size in a fresh process on a fresh repository and a fresh control plane
    // (the size of --objects: the run above, the first on its plane). On one plane each size would
    // also pay for the ones before it: 80,000 objects' worth of etcd, and the controllers still
    // rolling out the earlier sizes' Deployments (50,000 took 2.10× the per-object cost so).
    for (const n of scaleSizes) {
      if (n === objects) {
        result.scale.push(scaleRow(n, lk));
        continue;
      }
      const { run } = await onFreshPlane(
        log,
        String(n),
        (fresh, freshClient) =>
          measureLightkeeper(n, `s${n}`, () => {}, { plane: fresh, client: freshClient }),
        (p) => {
          runningPlane = p;
        },
      );
      result.scale.push(scaleRow(n, run));
      result.details[`scale${n}`] = {
        first: run.first.phasesMs,
        peakRssMbByPhase: peakRssByRun(run),
      };
      log(`scale ${n}: ${JSON.stringify(result.scale.at(-1))}`);
    }

    if (!skip.has('limit')) await measureLimit('raw2', 'after');
    if (!skip.has('kubectl')) await measureKubectl('kc2', 'after');
    const mean = (runs: number[]) =>
      runs.length === 0 ? null : seconds((runs.reduce((a, b) => a + b, 0) / runs.length) * 1000);
    result.firstApply.kubectl = mean(kubectlRuns);
    result.firstApply.limit = mean(limitRuns);
    result.details.kubectlRunsS = kubectlRuns;
    result.details.limitRunsS = limitRuns;

    if (fluxBinary) {
      const dir = writeTree(repoOf('fx'));
      try {
        const { flux, used } = await onOwnPlane("Flux's engine", async (fresh) => {
          await settle('flux', fresh);
          log(
            `Flux's engine (kustomize-controller's ApplyAllStaged): first apply, no-op, one object changed`,
          );
          const before = sampleCpu(pidsOf(fresh));
          let used: CpuSample = {};
          const flux = await runFluxEngine(fluxBinary, fresh.kubeconfig, dir, log, async () => {
            used = cpuBetween(before, sampleCpu(pidsOf(fresh)));
            await settle('flux no-op', fresh);
          });
          return { flux, used };
        });
        cpu.push(["Flux's engine first apply (client not counted)", used]);
        result.run.order.push('flux');
        result.firstApply.flux = seconds(flux.first.wallMs);
        result.noop.flux = seconds(flux.noop.wallMs);
        result.oneChange.flux = seconds(flux.oneChange.wallMs);
        result.details.fluxNoopWrites = flux.noop.requests['PATCH apply'] ?? 0;
        result.details.fluxNoopDryRuns = flux.noop.requests['PATCH dry-run'] ?? 0;
        result.details.fluxPeakRssMb = flux.peakRssMb;
        result.details.flux = flux;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } else {
      for (const k of ['firstApply.flux', 'noop.flux', 'oneChange.flux']) note(k, 'skipped (--skip flux)');
    }

    if (!skip.has('clone')) {
      // No control plane runs now: the git server's and the reads' time alone.
      log('clone + read, cold and warm, and git clone --depth 1');
      const clone = await measureCloneRead(repo.url);
      result.clone = { cold: seconds(clone.coldMs), warm: seconds(clone.warmMs), git: seconds(clone.gitMs) };
      result.details.files = clone.files;
    } else note('clone', 'skipped (--skip clone)');

    if (!skip.has('kustomize')) {
      log('kustomize render of a kustomization over the repository (median of 3)');
      const k = await measureKustomizeRender(3);
      result.kustomizeRender = {
        total: seconds(k.totalMs),
        render: seconds(k.renderMs),
        renderCpu: seconds(k.renderCpuMs),
        kubectlKustomizeCpu: seconds(k.kubectlKustomizeCpuMs),
      };
    } else note('kustomizeRender', 'skipped (--skip kustomize)');

    if (!skip.has('shards')) {
      const threshold = Number.parseInt(values['shard-threshold'] ?? String(defaultThreshold), 10);
      const fanout = Number.parseInt(values['shard-fanout'], 10);
      try {
        // Each run on a plane of its own, as bench/shardedOnly.ts does: on this one the controllers
        // would still be rolling out what the runs before left, counted against the first of them.
        const measure = (which: 'whole' | 'sharded') =>
          onFreshPlane(
            log,
            `the ${which} first apply`,
            (fresh, freshClient) =>
              measureInvokedApply(
                {
                  client: freshClient,
                  plane: fresh,
                  server,
                  objects,
                  threshold,
                  fanout,
                  settle: (before) => settle(before, fresh),
                  log,
                },
                which,
              ),
            (p) => {
              runningPlane = p;
            },
          );
        const whole = await measure('whole');
        const sharded = { whole, sharded: await measure('sharded'), threshold, fanout };
        if (!sharded.whole) throw new Error('the whole run was not measured');
        result.sharded = {
          whole: seconds(sharded.whole.wallMs),
          sharded: seconds(sharded.sharded.wallMs),
          shards: sharded.sharded.shards,
          perShard: sharded.sharded.perShard,
          threshold,
          fanout,
        };
        result.details.sharded = sharded;
        cpu.push(['reconcile function, whole (serverless-offline)', sharded.whole.cpu]);
        cpu.push(['reconcile function, sharded (serverless-offline)', sharded.sharded.cpu]);
      } catch (e) {
        // Reported, not fatal: the figures measured before it still print and reach the JSON.
        log(`sharded against whole failed: ${String(e)}`);
        note('sharded', `failed: ${String(e).slice(0, 500)}`);
      }
    } else note('sharded', 'skipped (--skip shards)');

    result.run.load = load();
    result.details.lightkeeper = { first: first.phasesMs, noop: noop.phasesMs, change: change?.phasesMs };
    result.details.lightkeeperPeakRssMbByPhase = peakRssByRun(lk);
    console.log(
      `\n${objects} objects (one file each), each engine's first apply on a control plane of its own, lightkeeper at concurrency ${concurrency}\n`,
    );
    console.log(formatText(benchRows(result)));
    for (const [k, v] of Object.entries(result.notes)) console.log(`  ${k}: ${v}`);
    if (result.scale.length > 0) console.log(`\n${formatText(scaleRows(result.scale))}`);
    console.log('');
    console.log(formatProfile('lightkeeper first apply', first));
    console.log(formatProfile('lightkeeper no-op', noop));
    if (change) console.log(formatProfile('lightkeeper one object changed', change));
    console.log(`\nCPU seconds during each first apply (client = the applying process):\n${formatCpu(cpu)}`);
    if (values.json) {
      writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
      log(`wrote ${values.json}`);
    }
  } finally {
    for (const step of cleanup.reverse()) {
      await Promise.resolve()
        .then(step)
        .catch((e: unknown) => log(`cleanup: ${String(e)}`));
    }
  }
}

// The control plane's processes are detached: stop them on Ctrl-C too.
process.once('SIGINT', () => {
  log('interrupted: stopping the control plane');
  void Promise.resolve(runningPlane?.stop()).finally(() => process.exit(130));
});
await main();
