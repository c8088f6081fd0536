import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// Each function starts without parsing or running the clients it may never use (Lambda's, SSM's
// through @middy/ssm, EKS's with the credential chain, GitHub's for commit statuses and App tokens):
// they are reached only through import() (lib/lambda/lazyLambdaClient.ts, lib/lambda/ssmMiddleware.ts,
// lib/lambda/kubeClientCache.ts, lib/github/githubFromEnv.ts, lib/git/githubAppToken.ts),
// which esbuild turns into a chunk of its own (serverless.yml `splitting`), loaded at its first use.
// A static import anywhere would undo it.

const root = join(import.meta.dirname, '..', '..', '..');
const esbuildOptions = (
  parse(readFileSync(join(root, 'serverless.yml'), 'utf8')) as {
    custom: { esbuild: { alias: Record<string, string>; mainFields: string[] } };
  }
).custom.esbuild;

const lazy = [
  '@aws-sdk/client-lambda',
  '@aws-sdk/client-ssm',
  '@aws-sdk/client-eks',
  '@aws-sdk/credential-providers',
];

/** Every input the entry reaches through static imports and require() only. */
function staticallyReached(metafile: Metafile, entry: string): Set<string> {
  const reached = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (reached.has(file)) continue;
    reached.add(file);
    for (const i of metafile.inputs[file]?.imports ?? [])
      if (i.kind !== 'dynamic-import' && !i.external) pending.push(i.path);
  }
  return reached;
}

describe("the functions' bundles", () => {
  for (const fn of ['reconcile', 'webhook', 'sweep']) {
    it(`${fn}: reach the AWS and GitHub clients only through import()`, async () => {
      const entry = `functions/${fn}.ts`;
      const { metafile } = await build({
        absWorkingDir: root,
        entryPoints: [entry],
        bundle: true,
        write: false,
        metafile: true,
        platform: 'node',
        target: 'node22',
        format: 'esm',
        outdir: join(root, '.esbuild-test'),
        mainFields: esbuildOptions.mainFields,
        alias: esbuildOptions.alias,
        logLevel: 'silent',
      });
      const reached = [...staticallyReached(metafile, entry)];
      for (const pkg of lazy)
        expect(
          reached.filter((f) => f.includes(`node_modules/${pkg}/`)),
          pkg,
        ).toEqual([]);
      // …and the bundle still has them, to load when used.
      const all = Object.keys(metafile.inputs);
      expect(all.some((f) => f.includes('node_modules/@aws-sdk/client-lambda/'))).toBe(true);
      expect(all.some((f) => f.includes('node_modules/@aws-sdk/client-ssm/'))).toBe(true);
    }, 60_000);
  }
});
