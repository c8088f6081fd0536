import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `kubectl apply --server-side -f dir -R`, timed; its discovery cache starts empty, as lightkeeper's does. */
export async function kubectlApply(
  kubectl: string,
  kubeconfig: string,
  dir: string,
): Promise<{ wallMs: number }> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'lk-bench-kubectl-cache-'));
  const args = [
    '--kubeconfig',
    kubeconfig,
    '--cache-dir',
    cacheDir,
    'apply',
    '--server-side',
    '-f',
    dir,
    '-R',
  ];
  const started = Date.now();
  try {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(kubectl, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
    if (code !== 0) throw new Error(`kubectl apply exited with ${code}:\n${stderr.slice(-4000)}`);
    return { wallMs: Date.now() - started };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
