import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlPlane } from '../../lib/controlplane/controlPlane';
import type { KubeClient } from '../../lib/kube/kubeClient';
import { kubeClientFromFile } from '../../lib/kube/loadKubeConfig';
import { eventually, kubeconfig, localControlPlane } from '../support/cluster';

// `lightkeeper start` as a user runs it: sample repo, serverless-offline, tracks, one signed push,
// status, then Ctrl-C. When the suite runs on its own local control plane, `start` runs as on a
// fresh clone, without KUBECONFIG: it starts a control plane of its own in the state directory of
// `lightkeeper cluster` (under a LIGHTKEEPER_CACHE of this test; the binaries are the suite's).
// Against KUBECONFIG's cluster it uses that cluster.

const cliPath = join(import.meta.dirname, '..', '..', 'bin', 'lightkeeper.mjs');
const root = join(import.meta.dirname, '..', '..');
const api = '/apis/lightkeeper.dev/v1alpha1';
const tracks = [
  `${api}/clustergittracks/platform`,
  `${api}/clustergittracks/demo`,
  `${api}/namespaces/team-a/gittracks/team-a`,
];

const suitePlane = localControlPlane();
const ownPlane = suitePlane !== undefined;
const work = mkdtempSync(join(tmpdir(), 'start-e2e-'));
const cache = join(work, 'cache');
const { KUBECONFIG: _, ...withoutKubeconfig } = process.env;
const env: NodeJS.ProcessEnv = suitePlane
  ? { ...withoutKubeconfig, LIGHTKEEPER_CACHE: cache, LIGHTKEEPER_BIN_DIR: dirname(suitePlane.kubectl) }
  : { ...process.env, KUBECONFIG: kubeconfig() };

let client: KubeClient;
let child: ChildProcess;
let output = '';
let exited: Promise<[number | null, NodeJS.Signals | null]>;

const printed = (pattern: RegExp) => {
  const match = pattern.exec(output)?.[1];
  if (!match) throw new Error(`${pattern} not found in the output:\n${output}`);
  return match;
};

/** The CLI as a user runs it (same environment as `start`): exit code and both streams. */
function cli(
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliPath, ...args],
      { encoding: 'utf8', env: { ...env, ...extraEnv } },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** Resolves true when a TCP connection to the URL's port is refused. */
function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

beforeAll(async () => {
  child = spawn(process.execPath, [cliPath, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const deadline = Date.now() + 240_000;
  while (!/\] ready in [\d.]+s/.test(output)) {
    if (child.exitCode !== null) throw new Error(`lightkeeper start exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`lightkeeper start not ready after 240 s:\n${output}`);
    await sleep(200);
  }
  client = await kubeClientFromFile(printed(/^ {2}kubeconfig +(\S+)$/m));
}, 300_000);

afterAll(async () => {
  // Still up when a test failed: Ctrl-C first, so it stops what it started (serverless-offline).
  if (child?.exitCode === null && child.signalCode === null) {
    child.kill('SIGINT');
    if ((await Promise.race([exited, sleep(30_000, 'timeout' as const, { ref: false })])) === 'timeout')
      child.kill('SIGKILL');
  }
  // The sample tracks stay in a cluster lightkeeper did not start; remove them (and, through the
  // garbage collector, what they applied). A control plane of its own is stopped with it, or here.
  if (!ownPlane) for (const path of tracks) await client?.request('DELETE', path).catch(() => {});
  await client?.close();
  await ControlPlane.attach(join(cache, 'cluster'))?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('lightkeeper start', () => {
  it('applies one signed push through serverless-offline and reports both kinds of track Ready', async () => {
    const head = execFileSync('git', ['ls-remote', printed(/git repository\s+(\S+)/), 'refs/heads/main'], {
      encoding: 'utf8',
    }).split('\t')[0];
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    for (const row of [
      'ClusterGitTrack\\s+-\\s+platform',
      'ClusterGitTrack\\s+-\\s+demo',
      'GitTrack\\s+team-a\\s+team-a',
    ]) {
      expect(output).toMatch(new RegExp(`${row}\\s+main\\s+${head}\\s+\\d+\\s+\\d+\\s+0\\s+True`));
    }
    expect(output).toContain(
      ownPlane
        ? 'drift sweep      every 5 minutes; new or changed tracks every minute'
        : "drift sweep      off (not this machine's cluster)",
    );
    // The functions' account of each reconcile comes before the banner that says it is ready.
    const ready = output.indexOf('] ready in');
    for (const track of ['ClusterGitTrack/platform', 'ClusterGitTrack/demo', 'GitTrack/team-a/team-a']) {
      const line = output.indexOf(`reconciled ${track}: Succeeded at ${head?.slice(0, 7)}`);
      expect(line, track).toBeGreaterThan(-1);
      expect(line, track).toBeLessThan(ready);
    }
    expect(output).toMatch(/webhook secret\s+\S{20,}/);
    // The webhook triggered all three tracks listing them as its own identity, which reads tracks only.
    expect(output).toMatch(
      /webhook identity system:serviceaccount:lightkeeper-system:lightkeeper-webhook {2}\(reads tracks only; kubeconfig \S+\)/,
    );
    const webhookClient = await kubeClientFromFile(printed(/reads tracks only; kubeconfig (\S+)\)/));
    try {
      await expect(webhookClient.get(`${api}/namespaces/team-a/gittracks/team-a`)).resolves.toMatchObject({
        kind: 'GitTrack',
        metadata: { name: 'team-a', namespace: 'team-a' },
      });
      await expect(webhookClient.get('/api/v1/namespaces/team-a/configmaps')).rejects.toMatchObject({
        status: 403,
      });
    } finally {
      await webhookClient.close();
    }
    for (const path of tracks) {
      expect(
        (await client.get<{ status: { lastAppliedCommit: string } }>(path)).status.lastAppliedCommit,
      ).toBe(head);
    }

    const find = (path: string) =>
      client.find<{ data?: Record<string, string>; rules?: Array<{ resources: string[] }> }>(path);
    expect(await find('/api/v1/namespaces/lightkeeper-demo')).toBeDefined();
    expect(await find('/api/v1/namespaces/team-a')).toBeDefined();
    expect(
      (await find('/apis/rbac.authorization.k8s.io/v1/clusterroles/lightkeeper-demo-viewer'))?.rules?.[0]
        ?.resources,
    ).toEqual(['configmaps', 'services']);
    expect((await find('/api/v1/namespaces/lightkeeper-demo/configmaps/greeting'))?.data?.RELEASE).toBe('2');
    expect(await find('/apis/apps/v1/namespaces/lightkeeper-demo/deployments/hello')).toBeDefined();
    expect(await find('/api/v1/namespaces/lightkeeper-demo/services/hello')).toBeDefined();
    expect((await find('/api/v1/namespaces/team-a/configmaps/team-settings'))?.data?.RELEASE).toBe('2');
  });

  it('applies a change delivered with the printed `lightkeeper push` command', async () => {
    const dir = printed(/working tree (\S+)\)/);
    const file = join(dir, 'team-a', 'configmap.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('RELEASE: "2"', 'RELEASE: "3"'));
    execFileSync('git', ['-C', dir, 'commit', '-qam', 'release 3 for team-a']);
    const args = ['push', dir, '--repo-url', printed(/git repository\s+(\S+)/)];
    args.push('--webhook', printed(/webhook\s+POST (\S+)/), '--secret', printed(/webhook secret\s+(\S+)/));
    const { code, stdout: out, stderr } = await cli(args);
    expect(code, stderr).toBe(0);
    expect(out).toMatch(/^pushed [0-9a-f]{40}: triggered GitTrack\/team-a\/team-a; skipped /);
    await eventually('the pushed change is applied', async () => {
      const cm = await client.find<{ data?: Record<string, string> }>(
        '/api/v1/namespaces/team-a/configmaps/team-settings',
      );
      return cm?.data?.RELEASE === '3';
    });
  });

  it('`push` and `replay` without flags find this run by themselves', async () => {
    const dir = printed(/working tree (\S+)\)/);
    const file = join(dir, 'team-a', 'configmap.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('RELEASE: "3"', 'RELEASE: "4"'));
    execFileSync('git', ['-C', dir, 'commit', '-qam', 'release 4 for team-a']);
    const push = await cli(['push']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).toContain('delivering to the running `npm start`');
    expect(push.stdout).toMatch(/^pushed [0-9a-f]{40}: triggered GitTrack\/team-a\/team-a/);
    await eventually('the pushed change is applied', async () => {
      const cm = await client.find<{ data?: Record<string, string> }>(
        '/api/v1/namespaces/team-a/configmaps/team-settings',
      );
      return cm?.data?.RELEASE === '4';
    });
    const replay = await cli(['replay', printed(/replay (cgt\/\S+) --commit/)]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stderr).toContain('replaying through the running `npm start`');
    expect(replay.stdout).toMatch(/^ClusterGitTrack \S+: Succeeded at [0-9a-f]{40} \(main\)/);
  });

  it('`lightkeeper push` exits 1 with the reason when the webhook does not take the push', async () => {
    const dir = printed(/working tree (\S+)\)/);
    const webhook = printed(/webhook\s+POST (\S+)/);
    const repoUrl = printed(/git repository\s+(\S+)/);
    const push = (url: string, secret: string) =>
      cli(['push', dir, '--repo-url', url, '--webhook', webhook, '--secret', secret]);
    const wrongSecret = await push(repoUrl, 'wrong');
    expect(wrongSecret.code).toBe(1);
    expect(wrongSecret.stdout).toBe('');
    expect(wrongSecret.stderr).toMatch(/pushed [0-9a-f]{40}: refused \(401\): signature mismatch/);
    const secret = printed(/webhook secret\s+(\S+)/);
    const elsewhere = `${repoUrl.replace(/\.git$/, '')}-elsewhere.git`;
    const unmatched = await push(elsewhere, secret);
    expect(unmatched.code).toBe(1);
    expect(unmatched.stderr).toContain(`no track follows ${elsewhere}`);
  });

  it('keeps serving while `npm run package` builds the zips, leaving nothing in the temp dir', async () => {
    const tmp = join(work, 'package-tmp');
    mkdirSync(tmp);
    const from = output.length;
    // npm on Node 22 keeps a compile cache of its own modules in the OS temp dir: not ours to check.
    execFileSync('npm', ['run', 'package', '--', '--package', join(work, 'package-out')], {
      cwd: root,
      env: { ...process.env, TMPDIR: tmp, SLS_TELEMETRY_DISABLED: '1', NODE_DISABLE_COMPILE_CACHE: '1' },
      stdio: 'ignore',
      // A packaging run that hangs fails the test instead of holding the suite until CI's limit.
      timeout: 240_000,
    });
    expect(readdirSync(tmp)).toEqual([]);
    // Two reconciles at once: serverless-offline loads the second into a new worker, from the
    // bundles it serves, which packaging must have left alone.
    const endpoint = printed(/Lambda endpoint\s+(\S+)/);
    const replays = await Promise.all(
      ['cgt/demo', 'cgt/platform'].map((track) =>
        cli(['replay', track, '--function', 'lightkeeper-dev-reconcile', '--endpoint', endpoint]),
      ),
    );
    for (const replay of replays) {
      expect(replay.code, replay.stderr).toBe(0);
      expect(replay.stdout).toMatch(/^ClusterGitTrack \w+: Succeeded at [0-9a-f]{40} \(main\)/);
    }
    expect(output.slice(from)).not.toMatch(/ failed: /);
  });

  it.skipIf(!ownPlane)(
    '`lightkeeper cluster` sees its control plane and does not start a second one',
    async () => {
      const status = await cli(['cluster', 'status']);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(/^apiserver +running \(pid \d+\)$/m);
      expect(status.stdout).toContain(
        `started by \`lightkeeper start\` (npm start, pid ${child.pid}), which stops it when it exits`,
      );
      expect(status.stdout).toContain(
        `used by            \`lightkeeper start\` (npm start, pid ${child.pid})`,
      );
      const second = await cli(['start']);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`is in use by \`lightkeeper start\` (pid ${child.pid})`);
      const up = await cli(['cluster', 'up']);
      expect(up.code).toBe(1);
      expect(up.stderr).toContain(`a control plane is already running in ${join(cache, 'cluster')}`);
      expect(up.stderr).toContain(`export KUBECONFIG=${printed(/^ {2}kubeconfig +(\S+)$/m)}`);
    },
  );

  it('stops everything it started on SIGINT and exits 0', async () => {
    const urls = [
      printed(/webhook\s+POST (\S+)/),
      printed(/Lambda endpoint\s+(\S+)/),
      printed(/git repository\s+(\S+)/),
    ];
    for (const url of urls) expect(await refused(url), url).toBe(false);
    child.kill('SIGINT');
    const timeout = sleep(30_000, 'timeout' as const, { ref: false });
    const result = await Promise.race([exited, timeout]);
    expect(result, output).toEqual([0, null]);
    expect(output).toContain('[lightkeeper] stopped\n');
    for (const url of urls) expect(await refused(url), url).toBe(true);
    expect(
      existsSync(printed(/reads tracks only; kubeconfig (\S+)\)/)),
      'the webhook kubeconfig is removed',
    ).toBe(false);
    expect(readdirSync(join(root, '.esbuild-offline')), 'its bundles are removed').toEqual([]);
    if (ownPlane) {
      expect(existsSync(join(cache, 'cluster')), 'its control plane is stopped and removed').toBe(false);
      const status = await cli(['cluster', 'status']);
      expect(status.code).toBe(1);
      expect(status.stderr).toContain(`no control plane recorded in ${join(cache, 'cluster')}`);
    }
  });
});
