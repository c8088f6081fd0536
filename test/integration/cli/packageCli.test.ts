import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectKustomizeLayer, expectRunnableFunctions } from '../../support/deployableArtifacts';
import { freshClone } from '../../support/freshClone';
import { type PackagedStack, readPackagedStack } from '../../support/packagedStack';
import { runWithDeadline } from '../../support/runWithDeadline';

const work = mkdtempSync(join(tmpdir(), 'package-cli-'));
const tree = join(work, 'tree');
const tmp = join(work, 'tmp');
const scratch = join(work, 'unzipped');
// Where `npm run deploy` packages to and uploads from: osls's default package directory.
const packaged = join(tree, '.serverless');
let stack: PackagedStack;

// `npm run package` (infra/osls.mjs, as `npm run deploy` before it deploys) on a fresh clone: no
// .layers/, .esbuild/ or .serverless/, as after `git clone` and `npm ci`; offline, no AWS account.
// Warm (the kustomize engine cached for linux/arm64) ~25-30 s on the shared 2 cores; the engine's
// cold cross-compile adds 2-4 min, once per change of infra/kustomize.
beforeAll(async () => {
  freshClone(tree);
  mkdirSync(tmp);
  mkdirSync(scratch);
  const started = Date.now();
  const result = await runWithDeadline('npm', ['run', 'package'], {
    cwd: tree,
    // npm on Node 22 keeps a compile cache of its own modules in the OS temp dir: not ours to check.
    env: { ...process.env, TMPDIR: tmp, SLS_TELEMETRY_DISABLED: '1', NODE_DISABLE_COMPILE_CACHE: '1' },
    timeoutMs: 480_000,
  });
  if (result.code !== 0) throw new Error(`npm run package failed (${result.code}):\n${result.output}`);
  console.error(`[package] npm run package on a fresh clone: ${((Date.now() - started) / 1000).toFixed(1)}s`);
  stack = readPackagedStack(packaged);
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm run package on a fresh clone', () => {
  it('builds every artifact the template uploads and the state names, and nothing else', () => {
    expect(stack.functions.map((f) => f.logicalId).sort()).toEqual([
      'ReconcileLambdaFunction',
      'SweepLambdaFunction',
      'WebhookLambdaFunction',
    ]);
    const zips = readdirSync(packaged).filter((f) => f.endsWith('.zip'));
    expect(stack.uploadedKeys.map((k) => k.split('/').pop()).sort()).toEqual(zips.sort());
    for (const { zip } of [...stack.functions, ...stack.layers]) expect(existsSync(zip), zip).toBe(true);
    // What osls deploy restores from serverless-state.json, relative to the service directory.
    for (const [name, artifact] of Object.entries(stack.stateArtifacts)) {
      expect(artifact, name).toBe(`.serverless/${name}.zip`);
      expect(existsSync(join(tree, artifact)), artifact).toBe(true);
    }
  });

  it("each function's zip holds only its bundle and its own chunks, which export the handler the template names", async () => {
    await expectRunnableFunctions(stack, scratch);
  });

  it('the kustomize layer holds the engine for arm64 where the reconcile function looks for it', async () => {
    await expectKustomizeLayer(stack, scratch);
  });

  it('leaves nothing in the OS temp dir', () => {
    expect(readdirSync(tmp)).toEqual([]);
  });
});
