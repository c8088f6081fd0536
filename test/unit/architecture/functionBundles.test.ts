import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// What a function imports at a cold start is what its bundle holds (serverless.yml bundles each
// with esbuild). client-node is the CLI's kubeconfig reader: a function reads its kubeconfig with
// lib/kube/staticKubeconfig.ts, and client-node's import was a third of a function's cold start.

const root = join(import.meta.dirname, '..', '..', '..');

async function bundledPackages(fn: string): Promise<Set<string>> {
  const result = await build({
    entryPoints: [join(root, 'functions', `${fn}.ts`)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    alias: { punycode: 'punycode/' },
    write: false,
    outfile: join(root, '.esbuild-test', `${fn}.mjs`),
    metafile: true,
    logLevel: 'error',
  });
  const packages = new Set<string>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
    if (m?.[1]) packages.add(m[1]);
  }
  return packages;
}

describe('the function bundles', () => {
  it.each(['webhook', 'reconcile', 'sweep'])('%s does not bundle @kubernetes/client-node', async (fn) => {
    const packages = await bundledPackages(fn);
    expect(packages.has('undici'), 'the bundle was read').toBe(true);
    expect(packages.has('@kubernetes/client-node')).toBe(false);
  });
});
