import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { reconcileUnderLease } from '../../../lib/lambda/reconcileUnderLease';
import { isCoalesced } from '../../../lib/lease/coalesced';
import { defaultLeaseNamespace, type LeaseRef, leaseTarget } from '../../../lib/lease/leaseTarget';
import { TrackLease } from '../../../lib/lease/trackLease';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import type { TrackRef } from '../../../lib/track/trackRef';
import { eventually, freshNamespace, kubeconfig, uniqueName } from '../../support/cluster';
import { configMap, createGitTrack, includeNamespaced, yamlOf } from '../../support/engine';
import { useEngineHarness } from '../../support/engineHarness';

// `lightkeeper reconcile` takes the same Lease as the function, in lightkeeper-system (the
// default: LIGHTKEEPER_LEASE_NAMESPACE is unset here), says whom it waits for, and gives the lease
// back on Ctrl-C.

let client: KubeClient;
let server: GitServer;
useEngineHarness((h) => ({ client, server } = h));
let gitCacheRoot: string;
beforeAll(() => {
  gitCacheRoot = mkdtempSync(join(tmpdir(), 'lk-cli-lease-'));
});
afterAll(() => rmSync(gitCacheRoot, { recursive: true, force: true }));

const leasePath = (t: LeaseRef) => `/apis/coordination.k8s.io/v1/namespaces/${t.namespace}/leases/${t.name}`;
const holderOf = async (t: LeaseRef) =>
  (await client.find<{ spec: { holderIdentity?: string } }>(leasePath(t)))?.spec.holderIdentity;

interface Cli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startCli(...args: string[]): Cli {
  const { LIGHTKEEPER_LEASE_NAMESPACE: _, ...env } = process.env;
  const child = spawn('node', ['bin/lightkeeper.mjs', ...args], {
    env: { ...env, KUBECONFIG: kubeconfig() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d;
  });
  child.stderr?.on('data', (d: Buffer) => {
    err += d;
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exit };
}

/** Starts the CLI on `track` and freezes it (SIGSTOP) as soon as it holds the lease and fetches. */
async function cliHoldingTheLease(track: TrackRef): Promise<Cli> {
  const cli = startCli('reconcile', `gittrack/${track.name}`, '-n', track.namespace as string, '-o', 'json');
  await new Promise<void>((resolve, reject) => {
    const check = (d: Buffer) => {
      if (!String(d).includes('[lightkeeper] fetch')) return;
      cli.child.kill('SIGSTOP');
      cli.child.stderr?.off('data', check);
      resolve();
    };
    cli.child.stderr?.on('data', check);
    cli.exit.then(({ code }) => reject(new Error(`CLI exited (${code}) before fetching: ${cli.stderr()}`)));
  });
  return cli;
}

async function gitTrack(): Promise<TrackRef> {
  const ns = await freshNamespace(client, 'cli-lease');
  const repo = createRepo(server, uniqueName('cli-lease'));
  commit(repo, { 'a.yaml': yamlOf(configMap('a')) }, 'one');
  return createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
}

describe('lightkeeper reconcile and the track lease', () => {
  it('holds the lease in lightkeeper-system; function invocations wait (one) or coalesce', async () => {
    const track = await gitTrack();
    const target = leaseTarget(track, defaultLeaseNamespace);
    const cli = await cliHoldingTheLease(track);
    try {
      expect(await holderOf(target)).toMatch(new RegExp(`^cli/${hostname()}/${cli.child.pid}/[0-9a-f]{8}$`));
      const cliHolder = (await holderOf(target)) as string;
      const invoke = (holder: string) =>
        reconcileUnderLease(
          { client, config: includeNamespaced, gitCacheRoot },
          { track, reason: holder },
          { namespace: defaultLeaseNamespace, holder, pollMs: 100, waitUntil: Date.now() + 60_000 },
        );
      const waiting = invoke('function-1');
      await eventually(
        'function-1 waits',
        async () =>
          (await holderOf({ namespace: target.namespace, name: target.waiterName })) === 'function-1',
        10_000,
      );
      const second = await invoke('function-2');
      expect(isCoalesced(second) && second).toMatchObject({ heldBy: cliHolder, waiter: 'function-1' });

      cli.child.kill('SIGCONT');
      expect(await cli.exit).toEqual({ code: 0, signal: null });
      expect(JSON.parse(cli.stdout())).toMatchObject({ result: 'Succeeded' });
      expect(((await waiting) as ReconcileSummary).result).toBe('Succeeded');
      expect(await holderOf(target)).toBeUndefined();
    } finally {
      cli.child.kill('SIGKILL');
    }
  });

  it('waits for the holder and says whom it waits for', async () => {
    const track = await gitTrack();
    const target = leaseTarget(track, defaultLeaseNamespace);
    const attempt = await TrackLease.tryAcquire(client, target, 'function-abc', 60);
    if (!('acquired' in attempt)) throw new Error('lease taken');
    const cli = startCli('reconcile', `gittrack/${track.name}`, '-n', track.namespace as string);
    try {
      await eventually('the CLI says it waits', async () => cli.stderr().includes('waiting'), 30_000);
      expect(cli.stderr()).toContain(
        `waiting for lease ${defaultLeaseNamespace}/${target.name}, held by function-abc`,
      );
      await attempt.acquired.release();
      expect(await cli.exit).toEqual({ code: 0, signal: null });
      expect(cli.stderr()).toContain(`lease ${defaultLeaseNamespace}/${target.name} acquired`);
      expect(cli.stdout()).toMatch(/Succeeded/);
    } finally {
      cli.child.kill('SIGKILL');
    }
  });

  it('releases the lease on Ctrl-C', async () => {
    const track = await gitTrack();
    const target = leaseTarget(track, defaultLeaseNamespace);
    const cli = await cliHoldingTheLease(track);
    try {
      expect(await holderOf(target)).toMatch(/^cli\//);
      cli.child.kill('SIGINT');
      cli.child.kill('SIGCONT');
      expect(await cli.exit).toEqual({ code: 130, signal: null });
      // Released, not left to expire (its TTL is 60 s).
      expect(await holderOf(target)).toBeUndefined();
    } finally {
      cli.child.kill('SIGKILL');
    }
  });
});
