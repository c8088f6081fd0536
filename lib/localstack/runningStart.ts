import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from '../config/cacheDir';
import { isAlive } from '../controlplane/processes';

/** Where a running `lightkeeper start` (npm start) can be reached, for `push` and `replay`. */
export interface StartEndpoints {
  pid: number;
  webhookUrl: string;
  webhookSecret: string;
  lambdaEndpoint: string;
  reconcileFunction: string;
  repoDir: string;
  repoUrl: string;
  kubeconfig: string;
}

// Beside the control plane's state dir, readable by its owner only: it holds the run's webhook secret.
const endpointsFile = () => join(cacheDir(), 'start-endpoints.json');

export function recordStartEndpoints(endpoints: Omit<StartEndpoints, 'pid'>): void {
  writeFileSync(endpointsFile(), `${JSON.stringify({ pid: process.pid, ...endpoints }, null, 2)}\n`, {
    mode: 0o600,
  });
}

/** Removes the record, if it is this process's. */
export function forgetStartEndpoints(): void {
  if (runningStart()?.pid === process.pid) rmSync(endpointsFile(), { force: true });
}

/** The endpoints of the `lightkeeper start` still running, if any (a record left by a dead one is ignored). */
export function runningStart(): StartEndpoints | undefined {
  try {
    const record = JSON.parse(readFileSync(endpointsFile(), 'utf8')) as StartEndpoints;
    return isAlive(record.pid) ? record : undefined;
  } catch {
    return undefined;
  }
}
