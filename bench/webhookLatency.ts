// Webhook benchmark (issue 4): acknowledgement latency p50/p99 through serverless-offline on
// loopback, and the cold `import` time of each bundled function as `osls package` builds it.
//
//   npm run bench:webhook                 # 200 deliveries per kind, 5 cold imports per function
//   npm run bench:webhook -- --requests 500 --imports 10
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ControlPlane } from '../lib/controlplane/controlPlane';
import { installLightkeeperCrds } from '../lib/kube/crds';
import { kubeClientFromFile } from '../lib/kube/loadKubeConfig';
import { deliveryHeaders, pingPayload, pushPayload } from '../lib/localstack/pushPayload';
import { startServerlessOffline } from '../lib/localstack/serverlessOffline';
import { provisionWebhookIdentity } from '../lib/localstack/webhookIdentity';

const targets = { p99Ms: 50, initMs: 300 } as const;
const root = join(import.meta.dirname, '..');
const functions = ['webhook', 'reconcile', 'sweep'] as const;
const log = (line: string) => console.error(`[bench] ${line}`);

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '200' }, imports: { type: 'string', default: '5' } },
});
const requests = Math.min(Number.parseInt(values.requests, 10), 5000);
const imports = Math.min(Number.parseInt(values.imports, 10), 50);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
const ms = (v: number) => `${v.toFixed(1)} ms`;

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  return rows.map((r) => r.map((cell, col) => cell.padEnd(widths[col]!)).join('  ')).join('\n');
}

/** Sequential deliveries of one signed body; the latencies of the last `count`, after a warm-up. */
async function measure(url: string, body: string, headers: Record<string, string>, count: number) {
  const times: number[] = [];
  for (let i = 0; i < count + 20; i++) {
    const started = performance.now();
    const res = await fetch(url, { method: 'POST', body, headers });
    await res.arrayBuffer();
    if (i >= 20) times.push(performance.now() - started);
    if (res.status >= 300) throw new Error(`delivery answered ${res.status}`);
  }
  return times.sort((a, b) => a - b);
}

/** Cold import of each function's bundle, one fresh Node process per import. */
const artifactSizes: string[][] = [];
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

function coldImports(): Record<(typeof functions)[number], number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'lk-bench-package-'));
  try {
    log('npm run package');
    execFileSync(process.execPath, [join(root, 'infra/osls.mjs'), 'package', '--package', dir], {
      cwd: root,
      stdio: 'ignore',
    });
    const result = {} as Record<(typeof functions)[number], number[]>;
    for (const fn of functions) {
      execFileSync('unzip', ['-q', '-o', join(dir, `${fn}.zip`), '-d', join(dir, fn)]);
      const file = join(dir, fn, 'functions', `${fn}.mjs`);
      // The bundle and its chunks (functions/<fn>.chunks/).
      const unpacked = readdirSync(join(dir, fn, 'functions'), { recursive: true, encoding: 'utf8' })
        .map((f) => statSync(join(dir, fn, 'functions', f)))
        .reduce((sum, f) => sum + (f.isFile() ? f.size : 0), 0);
      artifactSizes.push([
        `artifact: ${fn} (zip, unpacked)`,
        mb(statSync(join(dir, `${fn}.zip`)).size),
        mb(unpacked),
        '',
        '',
      ]);
      const script = `const t=performance.now();await import(${JSON.stringify(file)});console.log(performance.now()-t)`;
      result[fn] = Array.from({ length: imports }, () =>
        Number(
          execFileSync(process.execPath, ['--input-type=module', '-e', script], {
            env: {
              ...process.env,
              WEBHOOK_SECRET: 'bench',
              AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
            },
            encoding: 'utf8',
          }).trim(),
        ),
      ).sort((a, b) => a - b);
    }
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const plane = process.env.KUBECONFIG ? undefined : await ControlPlane.start({ log });
const kubeconfig = plane?.kubeconfig ?? (process.env.KUBECONFIG as string);
const identityDir = mkdtempSync(join(tmpdir(), 'lightkeeper-bench-webhook-'));
try {
  const client = await kubeClientFromFile(kubeconfig);
  const webhookKubeconfig = await installLightkeeperCrds(client)
    .then(() => provisionWebhookIdentity(client, kubeconfig, identityDir))
    .finally(() => client.close());
  const init = coldImports();

  log('starting serverless-offline');
  const secret = 'bench-secret';
  const stack = await startServerlessOffline({
    kubeconfig,
    webhookKubeconfig: webhookKubeconfig.kubeconfig,
    webhookSecret: secret,
    enforceTimeouts: true,
  });
  const rows: string[][] = [['measure', 'p50', 'p99 (imports: max)', 'target', 'result']];
  try {
    // A push for a repository no track follows: verify, parse, list the tracks, match, answer.
    const push = JSON.stringify(pushPayload('branch-created', { url: 'http://127.0.0.1:9/bench' }));
    const ping = JSON.stringify(pingPayload());
    for (const [what, body, event] of [
      ['ack: push (verify, list tracks, match)', push, 'push'],
      ['ack: ping (verify only)', ping, 'ping'],
    ] as const) {
      log(`${requests} deliveries: ${what}`);
      const times = await measure(
        stack.webhookUrl,
        body,
        await deliveryHeaders(body, secret, event),
        requests,
      );
      const p99 = percentile(times, 0.99);
      rows.push([
        what,
        ms(percentile(times, 0.5)),
        ms(p99),
        `p99 < ${targets.p99Ms} ms`,
        p99 < targets.p99Ms ? 'PASS' : 'MISS',
      ]);
    }
  } finally {
    await stack.stop();
  }
  for (const fn of functions) {
    const times = init[fn];
    const median = percentile(times, 0.5);
    rows.push([
      `cold import: ${fn}`,
      ms(median),
      ms(times.at(-1)!),
      `p50 < ${targets.initMs} ms`,
      median < targets.initMs ? 'PASS' : 'MISS',
    ]);
  }
  rows.push(...artifactSizes);
  console.log(table(rows));
  console.log(
    `(${requests} deliveries per kind after 20 warm-up, ${imports} cold imports per function; load average ${loadavg()[0]!.toFixed(2)})`,
  );
} finally {
  rmSync(identityDir, { recursive: true, force: true });
  await plane?.stop();
}
