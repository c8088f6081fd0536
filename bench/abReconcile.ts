// A/B of lightkeeper's reconcile between two checkouts on one control plane, interleaved: this
// shared machine's speed drifts within minutes, so each round runs every checkout once, in turn
// (the order alternates), on its own fresh copy of the generated repository. Each run is the
// benchmark's reconcile child (first apply, no-op, one object changed) bundled from that checkout
// as the benchmark bundles it, on this process's Node.
//
//   npx tsx bench/abReconcile.ts --checkout old=/path/to/other/worktree --checkout new=. --objects 500 --rounds 3
//   ... --profile /tmp/ab-prof --profile-rounds 2   # then profiled rounds (unminified bundles): a CPU profile per run

import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ControlPlane } from '../lib/controlplane/controlPlane';
import { installLightkeeperCrds } from '../lib/kube/crds';
import { kubeClientFromFile } from '../lib/kube/loadKubeConfig';
import { commit, createRepo, git } from '../lib/localstack/gitRepo';
import { startGitServer } from '../lib/localstack/gitServer';
import { createTrack, warmTrackerLists } from './benchEnv';
import { bundleEntry } from './bundleChild';
import { changeOneConfigMap } from './changeOneObject';
import type { ChildRun } from './childProtocol';
import { summarizeProfile } from './cpuProfile';
import { generateRepo } from './generateRepo';
import { waitForQuietPlane } from './quietPlane';
import { runReconcileChild } from './runChild';

const log = (line: string) => console.error(`[ab] ${line}`);
const { values } = parseArgs({
  options: {
    checkout: { type: 'string', multiple: true, default: [] },
    objects: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '32' },
    profile: { type: 'string' },
    'profile-rounds': { type: 'string', default: '1' },
  },
});
const checkouts = values.checkout.map((c) => {
  const [name = '', dir = ''] = c.split('=');
  if (!name || !dir) throw new Error(`--checkout NAME=DIR, got ${c}`);
  return { name, dir: resolve(dir) };
});
if (checkouts.length < 2) throw new Error('two --checkout NAME=DIR at least');
const objects = Number.parseInt(values.objects, 10);
const rounds = Number.parseInt(values.rounds, 10);
const concurrency = Number.parseInt(values.concurrency, 10);

/** The checkout's bench/reconcileChild.ts bundled with the benchmark's settings (one set for all). */
const bundle = (dir: string, minify: boolean) => bundleEntry(join(dir, 'bench/reconcileChild.ts'), minify);

const s = (ms: number | undefined) => (ms === undefined ? '-' : (ms / 1000).toFixed(2));
const requests = (r: ChildRun) =>
  Object.entries(r.requests)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
const row = (label: string, r: ChildRun | undefined) =>
  r
    ? `${label.padEnd(6)} wall ${s(r.wallMs)}  cpu ${s(r.cpuMs)}  fetch ${s(r.phasesMs.fetch)}  parse+plan ${s(r.phasesMs.parse)}  apply ${s(r.phasesMs.apply)}  health ${s(r.phasesMs.health)}  status ${s(r.phasesMs.status)}  writes ${r.summary.writes.objects}  event ms ${r.requestMs?.['POST event'] ?? '-'}  | ${requests(r)}`
    : `${label} -`;

const plane = await ControlPlane.start({ log: (l) => log(`control plane: ${l}`) });
const server = await startGitServer();
const client = await kubeClientFromFile(plane.kubeconfig);
const bundles: string[] = [];
try {
  await installLightkeeperCrds(client);
  await warmTrackerLists(client);
  const timing = await Promise.all(checkouts.map((c) => bundle(c.dir, true)));
  const profiling = values.profile ? await Promise.all(checkouts.map((c) => bundle(c.dir, false))) : [];
  bundles.push(...timing, ...profiling);
  const plan: Array<{ round: number; index: number; profileDir?: string }> = [];
  for (let round = 0; round < rounds; round++) {
    const order = checkouts.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const index of order) plan.push({ round, index });
  }
  const profileRounds = values.profile ? Number.parseInt(values['profile-rounds'], 10) : 0;
  for (let p = 0; p < profileRounds; p++) {
    const order = checkouts.map((_, i) => i);
    if (p % 2 === 1) order.reverse();
    for (const index of order) {
      const dir = join(values.profile as string, `${checkouts[index]!.name}-${p}`);
      mkdirSync(dir, { recursive: true });
      plan.push({ round: rounds + p, index, profileDir: dir });
    }
  }
  for (const { round, index, profileDir } of plan) {
    const checkout = checkouts[index]!;
    const prefix = `ab${round}${checkout.name.replace(/[^a-z0-9]/g, '')}`;
    const files = generateRepo(prefix, { objects, layout: 'file-per-object' });
    const repo = createRepo(server, prefix);
    commit(repo, files, `${objects} objects`);
    git(repo, 'repack', '-adq');
    await createTrack(client, prefix, repo);
    const { waitedMs } = await waitForQuietPlane(plane, log);
    log(
      `round ${round} ${checkout.name}${profileDir ? ' (profiled)' : ''}: quiet after ${s(waitedMs)} s, load ${loadavg()[0]?.toFixed(1)}`,
    );
    const script = profileDir ? profiling[index]! : timing[index]!;
    // Kept beside the profiles: its `// lib/...` comments name the source file of each line.
    if (profileDir) copyFileSync(script, join(profileDir, 'reconcileChild.mjs'));
    const result = await runReconcileChild(
      {
        script: [script],
        profileDir,
        change: { dir: repo.dir, files: changeOneConfigMap(files, 'changed').files },
      },
      plane.kubeconfig,
      prefix,
      concurrency,
      () => {},
    );
    if (result.first.summary.result !== 'Succeeded')
      throw new Error(`first apply: ${result.first.summary.result}`);
    console.log(`\n${checkout.name} round ${round}${profileDir ? ' (profiled, unminified)' : ''}`);
    console.log(row('first', result.first));
    console.log(row('noop', result.noop));
    console.log(row('change', result.change));
    if (profileDir) {
      for (const run of ['first', 'noop', 'change'])
        console.log(`${run}:\n${summarizeProfile(join(profileDir, `${run}.cpuprofile`), 20)}`);
    }
  }
} finally {
  await client.close();
  await server.close();
  await plane.stop();
  for (const b of bundles) rmSync(join(b, '..'), { recursive: true, force: true });
}
