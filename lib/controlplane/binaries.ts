import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ControlPlaneError } from '../errors';

export const controlPlaneBinaries = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kubectl'] as const;
export type ControlPlaneBinary = (typeof controlPlaneBinaries)[number];

const buildScript = fileURLToPath(new URL('../../infra/build-control-plane.sh', import.meta.url));

/**
 * The directory holding the control-plane binaries, building them first when the
 * cache lacks them. `LIGHTKEEPER_BIN_DIR` points at binaries built elsewhere.
 * Build progress streams to stderr.
 */
export async function ensureControlPlaneBinaries(): Promise<string> {
  const given = process.env.LIGHTKEEPER_BIN_DIR;
  if (given) {
    const missing = controlPlaneBinaries.filter((b) => !existsSync(`${given}/${b}`));
    if (missing.length > 0)
      throw new ControlPlaneError(`LIGHTKEEPER_BIN_DIR=${given} lacks ${missing.join(', ')}`);
    return given;
  }
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [buildScript], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', (cause) =>
      reject(new ControlPlaneError('could not run the control-plane build', { cause })),
    );
    child.on('close', (code) => {
      const dir = out.trim().split('\n').pop() ?? '';
      if (code === 0 && dir) resolve(dir);
      else reject(new ControlPlaneError(`control-plane build failed (exit ${code}); see the output above`));
    });
  });
}
