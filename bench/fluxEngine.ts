// Flux's apply engine (github.com/fluxcd/pkg/ssa, see flux-engine/main.go), built on first use into
// the cache like the control plane, then run against a directory of manifests.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from '../lib/settings/cacheDir';

/** The newest github.com/fluxcd/pkg/ssa that builds with this machine's Go (newer ones need Go 1.27). */
export const fluxSsaVersion = 'v0.78.0';

const sourceDir = fileURLToPath(new URL('./flux-engine/', import.meta.url));

export interface FluxRun {
  wallMs: number;
  actions: Record<string, number>;
  /** By method; PATCH split into `PATCH dry-run` and `PATCH apply` (the writes). */
  requests: Record<string, number>;
}

export interface FluxResult {
  objects: number;
  concurrency: number;
  first: FluxRun;
  noop: FluxRun;
  oneChange: FluxRun;
  changed: string;
  peakRssMb: number;
}

/** The binary's path: versioned, and keyed by the program's sources so an edit rebuilds it. */
function binaryPath(): string {
  const hash = createHash('sha256');
  for (const f of ['go.mod', 'go.sum', 'main.go']) hash.update(readFileSync(join(sourceDir, f)));
  const dir = join(cacheDir(), 'bench', `flux-engine-${fluxSsaVersion}`);
  return join(dir, `flux-engine-${hash.digest('hex').slice(0, 12)}`);
}

function run(
  command: string,
  args: string[],
  options: { cwd?: string; onLine?: (l: string) => Promise<string | undefined> | undefined },
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      const text = d.toString();
      stderr += text;
      // A line the caller answers (a promise of text) is written to the child's stdin.
      for (const line of text.split('\n'))
        if (line.trim())
          void Promise.resolve(options.onLine?.(line)).then((answer) => {
            if (answer !== undefined) child.stdin.write(answer);
          });
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Builds the engine once per version and source (about 2 minutes and ~1 GB of modules on 2 cores,
 * niced, modules from the Go module proxy); later runs find it in the cache.
 */
export async function ensureFluxEngine(log: (line: string) => void): Promise<string> {
  const binary = binaryPath();
  if (existsSync(binary)) return binary;
  mkdirSync(join(binary, '..'), { recursive: true });
  log(`building Flux's apply engine (fluxcd/pkg/ssa ${fluxSsaVersion}) into ${binary}, once`);
  const started = Date.now();
  const tmp = `${binary}.tmp-${process.pid}`;
  const ticker = setInterval(
    () => log(`  still building (${Math.round((Date.now() - started) / 1000)} s)`),
    15_000,
  );
  try {
    const { code, stderr } = await run('nice', ['go', 'build', '-o', tmp, '.'], {
      cwd: sourceDir,
      onLine: (l) => {
        log(`  go: ${l}`);
        return undefined;
      },
    });
    if (code !== 0)
      throw new Error(`go build of bench/flux-engine failed (${code}):\n${stderr.slice(-4000)}`);
  } finally {
    clearInterval(ticker);
  }
  renameSync(tmp, binary);
  log(`built in ${Math.round((Date.now() - started) / 1000)} s`);
  return binary;
}

/**
 * First apply, no-op and one changed object of `dir`, as kustomize-controller applies them;
 * `afterFirstApply` runs between the first apply and the no-op (the engine waits for it).
 */
export async function runFluxEngine(
  binary: string,
  kubeconfig: string,
  dir: string,
  log: (line: string) => void,
  afterFirstApply: () => Promise<void> = async () => {},
): Promise<FluxResult> {
  const { code, stdout, stderr } = await run(binary, ['-kubeconfig', kubeconfig, '-dir', dir, '-pause'], {
    onLine: async (l) => {
      log(`  ${l}`);
      if (l.trim() !== firstAppliedMarker) return undefined;
      await afterFirstApply();
      return 'continue\n';
    },
  });
  const line = stdout.trim().split('\n').at(-1);
  if (code !== 0 || !line) throw new Error(`flux-engine exited with ${code}:\n${stderr.slice(-4000)}`);
  return JSON.parse(line) as FluxResult;
}

/** What flux-engine prints on stderr after the first apply with -pause (main.go). */
const firstAppliedMarker = 'flux-engine: first apply done';
