import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlPlane } from './controlPlane';
import { isAlive } from './processes';

/** Who started a control plane and what stops it, for `cluster status` and the refusals of `up` and `start`. */
export function describeStartedBy(plane: ControlPlane): string {
  const by = plane.startedBy ?? { command: 'lightkeeper cluster up', pid: 0 };
  if (by.command !== 'lightkeeper start')
    return `started by \`${by.command}\`; \`lightkeeper cluster down\` stops it`;
  return isAlive(by.pid)
    ? `started by \`lightkeeper start\` (npm start, pid ${by.pid}), which stops it when it exits`
    : `started by \`lightkeeper start\` (pid ${by.pid}), which is no longer running; \`lightkeeper cluster down\` stops it`;
}

// A `lightkeeper start` using a control plane (its own, or one of `cluster up`) says so in the
// state dir: a second one would create the same sample tracks.
const userFile = (dir: string) => join(dir, 'lightkeeper-start.pid');

/** The pid of a running `lightkeeper start` that uses the control plane in `dir`, if any. */
export function startUsing(dir: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(userFile(dir), 'utf8'), 10);
    return isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

export const markStartUsing = (dir: string) => writeFileSync(userFile(dir), `${process.pid}\n`);
export const unmarkStartUsing = (dir: string) => rmSync(userFile(dir), { force: true });
