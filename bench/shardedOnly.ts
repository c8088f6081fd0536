// The sharded first apply alone (issue 23): the same measurement as `npm run bench`'s "sharded
// against whole" part (bench/shardedApply.ts), without the rest of the benchmark, and each of the
// two runs on a control plane of its own, so a large size (50,000) runs on a plane that holds
// nothing else.
//
//   npm run bench:shards -- --objects 50000 --threshold 5000 --fanout 2 [--sharded-first]
//     [--skip-whole] [--json out.json]
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startGitServer } from '../lib/localstack/gitServer';
import { defaultShardSettings } from '../lib/reconcile/shardRecord';
import { onFreshPlane } from './benchEnv';
import { seconds } from './benchResult';
import { waitForQuietPlane } from './quietPlane';
import { type InvokedApply, measureInvokedApply } from './shardedApply';

const log = (line: string) => console.error(`[bench] ${line}`);
const { values } = parseArgs({
  options: {
    objects: { type: 'string', default: '2000' },
    threshold: { type: 'string' },
    fanout: { type: 'string', default: String(defaultShardSettings.fanout) },
    'skip-whole': { type: 'boolean', default: false },
    'sharded-first': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const objects = Number.parseInt(values.objects, 10);
if (!(objects >= 200)) throw new Error('--objects: at least 200');
const threshold = Number.parseInt(
  values.threshold ?? String(Math.min(Math.ceil(objects / 2), defaultShardSettings.threshold)),
  10,
);
const fanout = Number.parseInt(values.fanout, 10);
if (!(threshold > 0 && threshold < objects)) throw new Error('--threshold: between 1 and --objects');
if (!(fanout >= 1)) throw new Error('--fanout: at least 1');

const runs = (values['skip-whole'] ? ['sharded'] : ['whole', 'sharded']) as Array<'whole' | 'sharded'>;
if (values['sharded-first']) runs.reverse();
const server = await startGitServer();
const measured: Partial<Record<'whole' | 'sharded', InvokedApply>> = {};
const quietWaitsS: Record<string, number> = {};
try {
  // Each run on a control plane of its own: the controllers' rollout of one run's Deployments
  // (ReplicaSets, Pods) must not be counted in the other's time and API-server CPU.
  for (const which of runs) {
    log(
      `${which}: ${availableParallelism()} CPUs (${cpus()[0]?.model}), load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    measured[which] = await onFreshPlane(log, `the ${which} first apply`, (plane, client) =>
      measureInvokedApply(
        {
          client,
          plane,
          server,
          objects,
          threshold,
          fanout,
          log,
          settle: async (before) => {
            const { waitedMs, quiet } = await waitForQuietPlane(plane, log);
            quietWaitsS[before] = seconds(waitedMs);
            if (!quiet) log(`the control plane was still busy before: ${before}`);
          },
        },
        which,
      ),
    );
  }
  const { whole, sharded } = measured as { whole?: InvokedApply; sharded: InvokedApply };
  const figures = {
    date: new Date().toISOString(),
    objects,
    threshold,
    fanout,
    order: runs,
    wholeS: whole ? seconds(whole.wallMs) : null,
    shardedS: seconds(sharded.wallMs),
    ratio: whole ? Math.round((sharded.wallMs / whole.wallMs) * 100) / 100 : null,
    quietWaitsS,
    details: { whole, sharded, threshold, fanout },
  };
  console.log(JSON.stringify(figures, null, 2));
  if (values.json) writeFileSync(values.json, `${JSON.stringify(figures, null, 2)}\n`);
} finally {
  await server.close();
}
