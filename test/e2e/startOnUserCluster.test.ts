import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFile } from '../../lib/kube/applyFile';
import type { KubeClient } from '../../lib/kube/kubeClient';
import { webhookRbacFile } from '../../lib/localstack/webhookIdentity';
import { eventually, kubeClient, kubeconfig } from '../support/cluster';
import { present } from '../support/present';

// `lightkeeper start` pointed (KUBECONFIG) at a cluster that already holds a track of every sample
// track's name, the sample's namespaces and ClusterRole, lightkeeper's webhook RBAC, and a ConfigMap the sample
// repository also names. Nothing of the user's may change, during the run or when it stops; what
// the run created goes, and only that. A user object the user then adds to the sample repository is
// released (its owner reference removed), never deleted, when the run stops.

const cliPath = join(import.meta.dirname, '..', '..', 'bin', 'lightkeeper.mjs');
const api = '/apis/lightkeeper.dev/v1alpha1';
const rbac = '/apis/rbac.authorization.k8s.io/v1';
const userTrackSpec = { repository: 'https://git.example.invalid/user/gitops.git', reference: 'main' };

/** The user's objects: collection, then the object; created unless the shared cluster has them. */
type UserObject = [
  string,
  { apiVersion: string; kind: string; metadata: Record<string, string>; [field: string]: unknown },
];
const userObjects: UserObject[] = [
  ['/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } }],
  ['/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'lightkeeper-demo' } }],
  [
    `${api}/clustergittracks`,
    {
      apiVersion: 'lightkeeper.dev/v1alpha1',
      kind: 'ClusterGitTrack',
      metadata: { name: 'platform' },
      spec: { ...userTrackSpec, subPath: 'platform' },
    },
  ],
  [
    `${api}/clustergittracks`,
    {
      apiVersion: 'lightkeeper.dev/v1alpha1',
      kind: 'ClusterGitTrack',
      metadata: { name: 'demo' },
      spec: { ...userTrackSpec, subPath: 'demo' },
    },
  ],
  [
    `${api}/namespaces/team-a/gittracks`,
    {
      apiVersion: 'lightkeeper.dev/v1alpha1',
      kind: 'GitTrack',
      metadata: { name: 'team-a', namespace: 'team-a' },
      spec: { ...userTrackSpec, subPath: 'team-a' },
    },
  ],
  [
    '/api/v1/namespaces/lightkeeper-demo/configmaps',
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'greeting', namespace: 'lightkeeper-demo' },
      data: { GREETING: 'the user’s own' },
    },
  ],
  [
    `${rbac}/clusterroles`,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'lightkeeper-demo-viewer' },
      rules: [],
    },
  ],
];

/** A lightkeeper installation's webhook RBAC (infra/rbac/webhook.yaml), applied as a deployment would. */
const installedRbac = [
  '/api/v1/namespaces/lightkeeper-system',
  '/api/v1/namespaces/lightkeeper-system/serviceaccounts/lightkeeper-webhook',
  `${rbac}/clusterroles/lightkeeper-webhook`,
  `${rbac}/clusterrolebindings/lightkeeper-webhook`,
];

const pathOf = ([collection, object]: UserObject) => `${collection}/${object.metadata.name}`;

interface Live {
  metadata: {
    uid: string;
    resourceVersion: string;
    ownerReferences?: unknown[];
    labels?: Record<string, string>;
  };
}

let client: KubeClient;
let child: ChildProcess;
let exited: Promise<[number | null, NodeJS.Signals | null]>;
let output = '';
/** Objects this test created (and removes); the shared cluster may have had some of them. */
const createdHere: string[] = [];
const before = new Map<string, Live['metadata']>();

const printed = (pattern: RegExp) => {
  const match = pattern.exec(output)?.[1];
  if (!match) throw new Error(`${pattern} not found in the output:\n${output}`);
  return match;
};

/** An object as it was before the run: every one of them existed then (asserted in beforeAll). */
const beforeRun = (path: string) => present(before.get(path), `${path} before the run`);

async function snapshot(): Promise<Map<string, Live['metadata'] | undefined>> {
  const now = new Map<string, Live['metadata'] | undefined>();
  for (const path of [...userObjects.map(pathOf), ...installedRbac])
    now.set(path, (await client.find<Live>(path))?.metadata);
  return now;
}

beforeAll(async () => {
  client = await kubeClient();
  await applyFile(client, webhookRbacFile);
  for (const entry of userObjects) {
    if ((await client.find(pathOf(entry))) === undefined) {
      await client.request('POST', entry[0], { body: entry[1] });
      createdHere.push(pathOf(entry));
    }
  }
  for (const [path, metadata] of await snapshot()) before.set(path, present(metadata, path));
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
  if (child?.exitCode === null && child.signalCode === null) {
    child.kill('SIGINT');
    if ((await Promise.race([exited, sleep(60_000, 'timeout' as const, { ref: false })])) === 'timeout')
      child.kill('SIGKILL');
  }
  for (const path of createdHere.reverse()) await client?.request('DELETE', path).catch(() => {});
  await client?.close();
});

describe('lightkeeper start on a cluster that has objects of the sample names', () => {
  const runId = () => printed(/label lightkeeper\.dev\/start-run=([0-9a-f]{6})/);

  it('names its own objects apart and changes none of the user’s', async () => {
    expect(output).toMatch(
      /already exist in this cluster: this run's objects are named \*-[0-9a-f]{6} instead/,
    );
    const id = runId();
    expect(output).toContain(
      `created the sample tracks: ClusterGitTrack/platform-${id}, ClusterGitTrack/demo-${id}, GitTrack/team-a-${id}/team-a-${id}`,
    );
    for (const [path, metadata] of await snapshot()) {
      expect(metadata?.uid, path).toBe(beforeRun(path).uid);
      expect(metadata?.resourceVersion, path).toBe(beforeRun(path).resourceVersion);
    }
    const demo = await client.get<{ data: Record<string, string> }>(
      `/api/v1/namespaces/lightkeeper-demo-${id}/configmaps/greeting`,
    );
    expect(demo.data.RELEASE).toBe('2');
  });

  it('on SIGINT removes exactly what it created, releasing a user object it was given', async () => {
    const id = runId();
    // The user adds their own ConfigMap to the sample repository: the demo track applies it.
    const dir = printed(/working tree (\S+)\)/);
    const userConfigMap = '/api/v1/namespaces/lightkeeper-demo/configmaps/greeting';
    writeFileSync(
      join(dir, `lightkeeper-demo-${id}`, 'users.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: greeting\n  namespace: lightkeeper-demo\ndata:\n  GREETING: from git\n',
    );
    execFileSync('git', ['-C', dir, 'add', '.']);
    execFileSync('git', ['-C', dir, 'commit', '-qm', 'the user’s ConfigMap']);
    const push = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [
          cliPath,
          'push',
          dir,
          '--repo-url',
          printed(/git repository\s+(\S+)/),
          '--webhook',
          printed(/webhook\s+POST (\S+)/),
          '--secret',
          printed(/webhook secret\s+(\S+)/),
        ],
        { env: { ...process.env, KUBECONFIG: kubeconfig() } },
        (error, _stdout, stderr) => resolve({ code: error ? 1 : 0, stderr }),
      ),
    );
    expect(push.code, push.stderr).toBe(0);
    await eventually('the user’s ConfigMap is applied from the sample repository', async () => {
      const live = await client.find<Live & { data: Record<string, string> }>(userConfigMap);
      return live?.data.GREETING === 'from git' && (live.metadata.ownerReferences?.length ?? 0) > 0;
    });

    child.kill('SIGINT');
    const result = await Promise.race([exited, sleep(60_000, 'timeout' as const, { ref: false })]);
    expect(result, output).toEqual([0, null]);
    expect(output).toContain('kept ConfigMap/lightkeeper-demo/greeting: it is older than this run');
    expect(output).toContain('[lightkeeper] stopped\n');

    for (const [path, metadata] of await snapshot()) {
      expect(metadata?.uid, path).toBe(beforeRun(path).uid);
      if (path !== userConfigMap)
        expect(metadata?.resourceVersion, path).toBe(beforeRun(path).resourceVersion);
    }
    await eventually('the garbage collector has let go of the user’s ConfigMap', async () => {
      const live = await client.find<Live>(userConfigMap);
      return live !== undefined && (live.metadata.ownerReferences ?? []).length === 0;
    });
    const selector = { labelSelector: `lightkeeper.dev/start-run=${id}` };
    const left = async () => {
      const lists = await Promise.all(
        [
          `${api}/clustergittracks`,
          `${api}/gittracks`,
          '/api/v1/namespaces',
          `${rbac}/clusterroles`,
          `${rbac}/clusterrolebindings`,
          '/api/v1/configmaps',
        ].map((path) =>
          client.get<{
            items: Array<{ kind?: string; metadata: { name: string; deletionTimestamp?: string } }>;
          }>(path, { query: selector }),
        ),
      );
      return lists.flatMap((l) => l.items).filter((o) => !o.metadata.deletionTimestamp);
    };
    await eventually(
      'nothing labelled with the run is left',
      async () => (await left()).length === 0,
      90_000,
    );
    // The user's objects outlive the collector's work, too. Time passing is the point: the collector
    // gets two more seconds to take something it must not.
    await sleep(2_000);
    for (const [path, metadata] of await snapshot()) expect(metadata?.uid, path).toBe(beforeRun(path).uid);
  });
});
