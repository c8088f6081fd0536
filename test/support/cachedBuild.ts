import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Runs one of infra/'s cached build scripts (niced; progress on stderr) and resolves with the path
 * it prints last. The scripts land builds by atomic rename, so concurrent runs are safe, and a
 * cached build answers at once.
 */
export function cachedBuild(script: string, env: Record<string, string> = {}): Promise<string> {
  const path = fileURLToPath(new URL(`../../infra/${script}`, import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn('nice', ['bash', path], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const built = out.trim().split('\n').pop() ?? '';
      if (code === 0 && built) resolve(built);
      else reject(new Error(`infra/${script} failed (exit ${code})`));
    });
  });
}

/**
 * The engines of the Lambda layer (linux/arm64), which `npm run package` copies from the same
 * cache: built before the tests that package, so no test cross-compiles them beside running tests.
 */
export const layerEngineBinary = () => cachedBuild('build-kustomize.sh', { GOOS: 'linux', GOARCH: 'arm64' });
