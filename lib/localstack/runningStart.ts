import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../controlplane/processes';
import { ConfigError } from '../errors';
import { cacheDir } from '../settings/cacheDir';

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

// One file per run, readable by its owner only (it holds the run's webhook secret).
const endpointsDir = () => join(cacheDir(), 'start-runs');
const fileOf = (pid: number) => join(endpointsDir(), `${pid}.json`);

export function recordStartEndpoints(endpoints: Omit<StartEndpoints, 'pid'>): void {
  mkdirSync(endpointsDir(), { recursive: true, mode: 0o700 });
  writeFileSync(fileOf(process.pid), `${JSON.stringify({ pid: process.pid, ...endpoints }, null, 2)}\n`, {
    mode: 0o600,
  });
}

export const forgetStartEndpoints = () => rmSync(fileOf(process.pid), { force: true });

/**
 * The endpoints of the `lightkeeper start` running on this machine, if one is (records of runs
 * that died are ignored); two running at once is a ConfigError naming them, for the flags to choose.
 */
export function runningStart(): StartEndpoints | undefined {
  let files: string[];
  try {
    files = readdirSync(endpointsDir()).filter((f) => f.endsWith('.json'));
  } catch {
    return undefined;
  }
  const running = files.flatMap((f) => {
    try {
      const record = JSON.parse(readFileSync(join(endpointsDir(), f), 'utf8')) as StartEndpoints;
      return isAlive(record.pid) ? [record] : [];
    } catch {
      return [];
    }
  });
  if (running.length > 1)
    throw new ConfigError(
      `${running.length} \`npm start\` runs are up (pids ${running.map((r) => r.pid).join(', ')})`,
      {
        subject: 'npm start',
        hint: `say which: ${running.map((r) => `--webhook ${r.webhookUrl} / --endpoint ${r.lambdaEndpoint}`).join('; ')}`,
      },
    );
  return running[0];
}
