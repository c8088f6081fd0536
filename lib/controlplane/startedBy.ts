import type { ControlPlane } from './controlPlane';
import { isAlive } from './processes';

/** Who runs a control plane and what stops it, for `cluster status` and the refusals of `up` and `start`. */
export function describeStartedBy(plane: ControlPlane): string {
  const by = plane.startedBy ?? { command: 'lightkeeper cluster up', pid: 0 };
  if (by.command !== 'lightkeeper start')
    return `started by \`${by.command}\`; \`lightkeeper cluster down\` stops it`;
  return isAlive(by.pid)
    ? `started by \`lightkeeper start\` (npm start, pid ${by.pid}), which stops it when it exits`
    : `started by \`lightkeeper start\` (pid ${by.pid}), which is no longer running; \`lightkeeper cluster down\` stops it`;
}

/** Whether a `lightkeeper start` that is still running uses this control plane as its own. */
export const inUseByStart = (plane: ControlPlane) =>
  plane.startedBy?.command === 'lightkeeper start' && isAlive(plane.startedBy.pid);
