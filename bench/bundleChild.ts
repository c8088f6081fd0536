import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Bundles the reconcile child as serverless.yml's esbuild settings bundle the functions, so its
 * RSS is what a deployed function would have: run through tsx instead, the loader and the
 * untransformed @kubernetes/client-node alone take 200-300 MB.
 */
export function bundleReconcileChild(): Promise<string> {
  return bundleBenchScript('reconcileChild');
}

/** Bundles `bench/<name>.ts` into `<temp dir>/<name>.mjs` (the caller removes the dir). */
export function bundleBenchScript(name: string): Promise<string> {
  return bundleEntry(fileURLToPath(new URL(`./${name}.ts`, import.meta.url)));
}

/**
 * Bundles `entry` (a script of this or another checkout) into `<temp dir>/<name>.mjs` with
 * serverless.yml's esbuild settings; unminified (names kept) for a CPU profile to read.
 */
export async function bundleEntry(entry: string, minify = true): Promise<string> {
  const outfile = join(mkdtempSync(join(tmpdir(), 'lk-bench-bundle-')), `${basename(entry, '.ts')}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    minify,
    keepNames: !minify,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    // As serverless.yml's esbuild settings: the punycode npm package, not Node's deprecated module.
    alias: { punycode: 'punycode/' },
    banner: {
      js: "import { createRequire as __lkCreateRequire } from 'node:module'; const require = __lkCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return outfile;
}
