// `npm run package [-- osls options]` and `npm run deploy [-- osls options]`: builds everything the
// stack ships that osls does not build itself, then runs `osls package` or `osls deploy` (which
// packages first), with guarantees osls does not give.
// - The render engines (kustomize-render, and helm-render for charts) are built for the functions'
//   architecture (linux/arm64) into .layers/kustomize, the directory serverless.yml packages as the
//   `kustomize` layer (its binaries land in /opt/bin). On a fresh clone that directory does not exist and osls alone fails with
//   "No file matches include / exclude patterns". The functions' bundles are serverless-esbuild's.
// - Nothing is left in the OS temp dir: serverless-esbuild zips each function from a copy in
//   $TMPDIR/<function>-<pid>-… and its cleanup cannot remove a non-empty directory (~27 MB a run).
//   osls runs with a TMPDIR of its own, removed afterwards.
// - It shares no build output with a running `npm start`: serverless-esbuild rebuilds and then
//   deletes its work dir (`.esbuild/`), while serverless-offline serves from a directory of its own
//   (see lib/localstack/serverlessOffline.ts).
// Source maps stay out of the zips unless LIGHTKEEPER_SOURCEMAPS=true (serverless.yml).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { kmsKeyArns } from './kms-key-arns.mjs';

const commands = ['package', 'deploy'];
const [command, ...options] = process.argv.slice(2);
if (!commands.includes(command)) {
  console.error(`usage: node infra/osls.mjs ${commands.join('|')} [osls options]`);
  process.exit(2);
}

const arns = kmsKeyArns(process.env.LIGHTKEEPER_KMS_KEY_ARNS);
if (arns instanceof Error) {
  console.error(arns.message);
  process.exit(2);
}

const root = join(import.meta.dirname, '..');
// serverless-esbuild zips whatever its build dir holds: start from an empty one, so no file of an
// earlier build (a source map from an opted-in run) slips into the zips.
rmSync(join(root, '.esbuild'), { recursive: true, force: true });
const tmp = mkdtempSync(join(tmpdir(), 'lightkeeper-package-'));
try {
  buildKustomizeLayer(tmp);
  // LIGHTKEEPER_KUSTOMIZE_BIN names a binary on this machine: the functions use the layer's.
  const { LIGHTKEEPER_KUSTOMIZE_BIN: _local, ...inherited } = process.env;
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'serverless', 'bin', 'serverless.js'), command, ...options],
    { cwd: root, stdio: 'inherit', env: { ...inherited, TMPDIR: tmp, LIGHTKEEPER_ESBUILD_DIR: '.esbuild' } },
  );
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

/**
 * infra/build-kustomize.sh for linux/arm64 (cached per source digest): kustomize-render and
 * helm-render, copied to .layers/kustomize/bin.
 */
function buildKustomizeLayer(tmp) {
  const built = spawnSync('nice', ['bash', join(root, 'infra', 'build-kustomize.sh')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, GOOS: 'linux', GOARCH: 'arm64', TMPDIR: tmp },
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`building the kustomize layer failed (exit ${built.status})`);
  const layerBin = join(root, '.layers', 'kustomize', 'bin');
  rmSync(join(root, '.layers', 'kustomize'), { recursive: true, force: true });
  mkdirSync(layerBin, { recursive: true });
  const kustomize = built.stdout.trim().split('\n').pop();
  // helm-render (the engine built with Helm, for spec.helm) is built beside kustomize-render.
  for (const [from, name] of [
    [kustomize, 'kustomize-render'],
    [join(dirname(kustomize), 'helm-render'), 'helm-render'],
  ]) {
    copyFileSync(from, join(layerBin, name));
    chmodSync(join(layerBin, name), 0o755);
  }
}
