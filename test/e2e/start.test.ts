import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../lib/kube/kubeClient';
import { eventually, kubeClient, kubeconfig } from '../support/cluster';

// `lightkeeper start` as a user runs it, against the shared test cluster (KUBECONFIG set; the local
// control plane path is what the global setup exercises): sample repo, serverless-offline, tracks,
// one signed push, status, then Ctrl-C.

const cliPath = join(import.meta.dirname, '..', '..', 'bin', 'lightkeeper.mjs');
const api = '/apis/lightkeeper.dev/v1alpha1';
const tracks = [
  `${api}/clustergittracks/platform`,
  `${api}/clustergittracks/demo`,
  `${api}/namespaces/team-a/gittracks/team-a`,
];

let client: KubeClient;
let child: ChildProcess;
let output = '';
let exited: Promise<[number | null, NodeJS.Signals | null]>;

const printed = (pattern: RegExp) => {
  const match = pattern.exec(output)?.[1];
  if (!match) throw new Error(`${pattern} not found in the output:\n${output}`);
  return match;
};

/** The CLI as a user runs it: exit code and both streams. */
function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cliPath, ...args], { encoding: 'utf8' }, (error, stdout, stderr) =>
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
  client = await kubeClient();
  child = spawn(process.execPath, [cliPath, 'start'], {
    env: { ...process.env, KUBECONFIG: kubeconfig() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const deadline = Date.now() + 240_000;
  while (!/\] ready in [\d.]+s/.test(output)) {
    if (child.exitCode !== null) throw new Error(`lightkeeper start exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`lightkeeper start not ready after 240 s:\n${output}`);
    await sleep(200);
  }
}, 300_000);

afterAll(async () => {
  if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  // The sample tracks stay in a cluster lightkeeper did not start; remove them (and, through the
  // garbage collector, what they applied).
  for (const path of tracks) await client?.request('DELETE', path).catch(() => {});
  await client?.close();
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
    expect(output).toContain("drift sweep      off (not this machine's cluster)");
    expect(output).toMatch(/webhook secret\s+\S{20,}/);
    // The webhook triggered all three tracks listing them as its own identity, which reads tracks only.
    expect(output).toMatch(
      /webhook identity system:serviceaccount:lightkeeper-system:lightkeeper-webhook {2}\(reads tracks only; kubeconfig \S+\)/,
    );
    const webhookClient = await KubeClient.fromFile(printed(/reads tracks only; kubeconfig (\S+)\)/));
    try {
      expect(await webhookClient.get(`${api}/namespaces/team-a/gittracks/team-a`)).toBeDefined();
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
    const out = execFileSync(process.execPath, [cliPath, ...args], { encoding: 'utf8' });
    expect(out).toMatch(/^pushed [0-9a-f]{40}: triggered GitTrack\/team-a\/team-a; skipped /);
    await eventually('the pushed change is applied', async () => {
      const cm = await client.find<{ data?: Record<string, string> }>(
        '/api/v1/namespaces/team-a/configmaps/team-settings',
      );
      return cm?.data?.RELEASE === '3';
    });
  });

  it('`lightkeeper push` exits 1 with the reason when the webhook does not take the push', async () => {
    const dir = printed(/working tree (\S+)\)/);
    const webhook = printed(/webhook\s+POST (\S+)/);
    const repoUrl = printed(/git repository\s+(\S+)/);
    const wrongSecret = await cli(
      'push',
      dir,
      '--repo-url',
      repoUrl,
      '--webhook',
      webhook,
      '--secret',
      'wrong',
    );
    expect(wrongSecret.code).toBe(1);
    expect(wrongSecret.stdout).toBe('');
    expect(wrongSecret.stderr).toMatch(/pushed [0-9a-f]{40}: refused \(401\): signature mismatch/);
    const secret = printed(/webhook secret\s+(\S+)/);
    const elsewhere = `${repoUrl.replace(/\.git$/, '')}-elsewhere.git`;
    const unmatched = await cli(
      'push',
      dir,
      '--repo-url',
      elsewhere,
      '--webhook',
      webhook,
      '--secret',
      secret,
    );
    expect(unmatched.code).toBe(1);
    expect(unmatched.stderr).toContain(`no track follows ${elsewhere}`);
  });

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
  });
});
