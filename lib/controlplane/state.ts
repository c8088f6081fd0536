import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a running control plane leaves on disk so any process can find, restart or stop it. */
export interface ControlPlaneState {
  dir: string;
  binDir: string;
  /** Whether `dir` was created by us (and is removed on stop). */
  ownsDir: boolean;
  kubeconfig: string;
  server: string;
  ports: { etcdClient: number; etcdPeer: number; apiserver: number; controllerManager: number };
  pids: { etcd?: number; apiserver?: number; controllerManager?: number };
  startedAt: string;
  /** The command that started it, e.g. `lightkeeper start`, and its process (which may stop it). */
  startedBy?: { command: string; pid: number };
}

export const stateFile = (dir: string) => join(dir, 'state.json');

export function readState(dir: string): ControlPlaneState | undefined {
  try {
    return JSON.parse(readFileSync(stateFile(dir), 'utf8')) as ControlPlaneState;
  } catch {
    return undefined;
  }
}

export function writeState(state: ControlPlaneState): void {
  const tmp = `${stateFile(state.dir)}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, stateFile(state.dir));
}
