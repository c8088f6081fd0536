import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshClone } from '../../support/freshClone';
import { elfMachine, handlerEntry, type PackagedStack, readPackagedStack } from '../../support/packagedStack';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'package-cli-'));
const tree = join(work, 'tree');
const tmp = join(work, 'tmp');
// Where `npm run deploy` packages to and uploads from: osls's default package directory.
const packaged = join(tree, '.serverless');
let stack: PackagedStack;
let took: number;

const unzipped = async (zip: string): Promise<string> => {
  const to = join(work, 'unzipped', relative(packaged, zip));
  mkdirSync(to, { recursive: true });
  await run('unzip', ['-q', '-o', zip, '-d', to]);
  return to;
};
const entries = async (zip: string) => (await run('unzip', ['-Z1', zip])).stdout.trim().split('\n').sort();

// The packaging step of `npm run deploy` (both are infra/osls.mjs) on a fresh clone: no
// .layers/, .esbuild/ or .serverless/, as after `git clone` and `npm ci`. Warm (kustomize engine
// cached for linux/arm64) it takes ~1 min on the shared 2 cores; the engine's cold cross-compile
// adds 2-4 min, once per change of infra/kustomize.
beforeAll(async () => {
  freshClone(tree);
  mkdirSync(tmp);
  const started = Date.now();
  await run('npm', ['run', 'package'], {
    cwd: tree,
    // npm on Node 22 keeps a compile cache of its own modules in the OS temp dir: not ours to check.
    env: { ...process.env, TMPDIR: tmp, SLS_TELEMETRY_DISABLED: '1', NODE_DISABLE_COMPILE_CACHE: '1' },
  });
  took = Date.now() - started;
  stack = readPackagedStack(packaged);
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm run package on a fresh clone', () => {
  it('builds every artifact the template uploads, and nothing else', async () => {
    console.error(`[package] npm run package on a fresh clone: ${(took / 1000).toFixed(1)}s`);
    expect(stack.functions.map((f) => f.logicalId).sort()).toEqual([
      'ReconcileLambdaFunction',
      'SweepLambdaFunction',
      'WebhookLambdaFunction',
    ]);
    expect(stack.layers.map((l) => l.logicalId)).toEqual(['KustomizeLambdaLayer']);
    const zips = readdirSync(packaged).filter((f) => f.endsWith('.zip'));
    expect(stack.uploadedKeys.map((k) => k.split('/').pop()).sort()).toEqual(zips.sort());
    for (const { zip } of [...stack.functions, ...stack.layers]) expect(existsSync(zip), zip).toBe(true);
    // What osls deploy restores from serverless-state.json, relative to the service directory.
    for (const [name, artifact] of Object.entries(stack.stateArtifacts)) {
      expect(artifact, name).toBe(`.serverless/${name}.zip`);
      expect(existsSync(join(tree, artifact)), artifact).toBe(true);
    }
  });

  it("each function's zip holds only its bundle, and the bundle exports the handler the template names", async () => {
    for (const fn of stack.functions) {
      expect(fn.runtime, fn.logicalId).toBe('nodejs22.x');
      expect(fn.architectures, fn.logicalId).toEqual(['arm64']);
      const { module, export: name } = handlerEntry(fn.handler);
      // No source maps (LIGHTKEEPER_SOURCEMAPS is off by default), nothing but the entry file.
      expect(await entries(fn.zip), fn.logicalId).toEqual([`${module}.mjs`]);
      const entry = join(await unzipped(fn.zip), `${module}.mjs`);
      // Imported as Lambda's runtime does, in a process with none of this machine's settings.
      const { stdout } = await run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(entry)}); console.log(typeof m.${name})`,
        ],
        { env: { PATH: process.env.PATH } },
      );
      expect(stdout.trim(), fn.handler).toBe('function');
    }
  });

  it('the kustomize layer holds the engine for arm64 where the reconcile function looks for it', async () => {
    const [layer] = stack.layers;
    expect(layer?.architectures).toEqual(['arm64']);
    expect(await entries(layer?.zip ?? '')).toEqual(['bin/kustomize-render']);
    const binary = join(await unzipped(layer?.zip ?? ''), 'bin', 'kustomize-render');
    expect(elfMachine(readFileSync(binary))).toBe(183);
    const reconcile = stack.functions.find((f) => f.logicalId === 'ReconcileLambdaFunction');
    expect(reconcile?.layers).toEqual(['KustomizeLambdaLayer']);
    // A layer's files land under /opt.
    expect(reconcile?.environment.LIGHTKEEPER_KUSTOMIZE_BIN).toBe('/opt/bin/kustomize-render');
  });

  it('leaves nothing in the OS temp dir', () => {
    expect(readdirSync(tmp)).toEqual([]);
  });
});
