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
// - It ends when osls has reported an error: after a failed esbuild build serverless-esbuild leaves
//   esbuild's service running and osls never exits (floydspace/serverless-esbuild#532).
// Source maps stay out of the zips unless LIGHTKEEPER_SOURCEMAPS=true (serverless.yml).
import { spawn, spawnSync } from 'node:child_process';
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
  process.exitCode = await runOsls(
    [join(root, 'node_modules', 'serverless', 'bin', 'serverless.js'), command, ...options],
    { ...inherited, TMPDIR: tmp, LIGHTKEEPER_ESBUILD_DIR: '.esbuild' },
  );
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

/**
 * Runs osls with its output passed through, and returns its exit code. Once osls has printed its
 * error report ("Environment: …, osls …" and "Error:"), it is given `graceMs` to exit, then stopped,
 * and the code is 1.
 */
function runOsls(args, env, graceMs = 10_000) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env,
      stdio: ['inherit', 'pipe', 'pipe'],
    });
    let seen = '';
    let stopping;
    const watch = (chunk, out) => {
      out.write(chunk);
      seen = (seen + chunk.toString()).slice(-4096);
      if (stopping || !/^Environment: .*osls/m.test(seen) || !/^Error:\s*$/m.test(seen)) return;
      stopping = setTimeout(() => {
        console.error(
          '[package] osls reported an error and did not exit (a failed esbuild build leaves esbuild running, floydspace/serverless-esbuild#532): stopped',
        );
        // esbuild's service ends when its stdin, a pipe from osls, closes.
        child.kill('SIGKILL');
      }, graceMs);
    };
    child.stdout.on('data', (c) => watch(c, process.stdout));
    child.stderr.on('data', (c) => watch(c, process.stderr));
    // A stop of this process is osls's (Ctrl-C reaches both); this one ends when osls does.
    const pass = (signal) => child.kill(signal);
    process.on('SIGINT', pass);
    process.on('SIGTERM', pass);
    child.on('close', (code, signal) => {
      clearTimeout(stopping);
      process.off('SIGINT', pass);
      process.off('SIGTERM', pass);
      resolve(stopping && signal ? 1 : (code ?? 1));
    });
  });
}
