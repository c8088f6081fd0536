import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  forgetStartEndpoints,
  recordStartEndpoints,
  runningStart,
} from '../../../lib/localstack/runningStart';

const endpoints = {
  webhookUrl: 'http://127.0.0.1:3000/webhook',
  webhookSecret: 's',
  lambdaEndpoint: 'http://127.0.0.1:3002',
  reconcileFunction: 'lightkeeper-dev-reconcile',
  repoDir: '/tmp/repo',
  repoUrl: 'http://127.0.0.1:1/repo.git',
  kubeconfig: '/tmp/kubeconfig',
};

let cache: string;
const saved = process.env.LIGHTKEEPER_CACHE;
beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), 'running-start-'));
  process.env.LIGHTKEEPER_CACHE = cache;
});
afterEach(() => {
  if (saved === undefined) delete process.env.LIGHTKEEPER_CACHE;
  else process.env.LIGHTKEEPER_CACHE = saved;
  rmSync(cache, { recursive: true, force: true });
});

describe('runningStart', () => {
  it('finds the run that recorded itself, until it forgets; a dead run is ignored', () => {
    expect(runningStart()).toBeUndefined();
    recordStartEndpoints(endpoints);
    expect(runningStart()).toEqual({ pid: process.pid, ...endpoints });
    // A record left by a process that is gone (pid 2^22 + 1 exceeds Linux's pid_max).
    writeFileSync(join(cache, 'start-runs', 'dead.json'), JSON.stringify({ ...endpoints, pid: 4194305 }));
    expect(runningStart()?.pid).toBe(process.pid);
    forgetStartEndpoints();
    expect(runningStart()).toBeUndefined();
  });

  it('refuses to choose between two running starts, naming both', () => {
    recordStartEndpoints(endpoints);
    writeFileSync(
      join(cache, 'start-runs', 'other.json'),
      JSON.stringify({ ...endpoints, pid: process.ppid, webhookUrl: 'http://127.0.0.1:4000/webhook' }),
    );
    expect(() => runningStart()).toThrow(`2 \`npm start\` runs are up (pids`);
    try {
      runningStart();
    } catch (e) {
      expect((e as { hint: string }).hint).toContain('--webhook http://127.0.0.1:4000/webhook');
    }
  });
});
