import { rmSync } from 'node:fs';
import { ControlPlane } from '../controlplane/controlPlane';
import { describeStartedBy, markStartUsing, startUsing, unmarkStartUsing } from '../controlplane/startedBy';
import { ControlPlaneError } from '../errors';
import { localControlPlaneDir } from '../settings/cacheDir';
import type { Teardown } from './teardown';

/**
 * The local control plane of `lightkeeper start`, in the state directory `lightkeeper cluster`
 * uses: one already started by `lightkeeper cluster up` is used (and left running), otherwise one
 * is started there and stopped at teardown (`startedHere`: it holds nothing but this run's objects). Another `lightkeeper start` using it is refused: both
 * would create the same sample tracks.
 */
export async function localControlPlane(options: {
  log: (line: string) => void;
  teardown: Teardown;
}): Promise<{ plane: ControlPlane; startedHere: boolean }> {
  const { log, teardown } = options;
  const dir = localControlPlaneDir();
  const existing = ControlPlane.attach(dir);
  if (existing) {
    const status = Object.entries(existing.status());
    if (status.every(([, s]) => s.running)) {
      const user = startUsing(dir);
      if (user !== undefined) {
        throw new ControlPlaneError(
          `the local control plane in ${dir} is in use by \`lightkeeper start\` (pid ${user}); stop that one first, or set KUBECONFIG to use another cluster`,
          { subject: dir },
        );
      }
      log(`using the running local control plane in ${dir} (${describeStartedBy(existing)})`);
      use(dir, teardown);
      return { plane: existing, startedHere: false };
    }
    if (status.some(([, s]) => s.running)) {
      const running = status.filter(([, s]) => s.running).map(([name]) => name);
      throw new ControlPlaneError(
        `the local control plane in ${dir} is partly running (${running.join(', ')}): \`lightkeeper cluster down\` stops it`,
        { subject: dir },
      );
    }
    // Left behind by a run that was killed: nothing runs from it any more.
    rmSync(dir, { recursive: true, force: true });
  }
  log(`starting the local control plane in ${dir} (KUBECONFIG is not set)`);
  const plane = await ControlPlane.start({
    dir,
    log: (line) => log(`  ${line}`),
    startedBy: { command: 'lightkeeper start', pid: process.pid },
  });
  teardown.add('stopping the control plane', () => plane.stop());
  use(dir, teardown);
  return { plane, startedHere: true };
}

function use(dir: string, teardown: Teardown): void {
  markStartUsing(dir);
  teardown.add('releasing the local control plane', () => unmarkStartUsing(dir));
}
