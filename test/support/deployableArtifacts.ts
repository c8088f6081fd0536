import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { elfMachine, handlerEntry, type PackagedStack } from './packagedStack';

const run = promisify(execFile);

export const zipEntries = async (zip: string) =>
  (await run('unzip', ['-Z1', zip])).stdout.trim().split('\n').sort();

async function unzipped(zip: string, scratch: string): Promise<string> {
  const to = mkdtempSync(join(scratch, `${basename(zip, '.zip')}-`));
  await run('unzip', ['-q', '-o', zip, '-d', to]);
  return to;
}

/**
 * Each function of the stack runs on Node.js 22 on arm64, and its zip holds only its bundle and the
 * chunks of its own (no source maps, no other function's chunks: infra/bundle/chunksBesideEntry.cjs),
 * which exports the handler the template names when imported as Lambda's runtime does, in a process
 * with none of this machine's settings.
 */
export async function expectRunnableFunctions(stack: PackagedStack, scratch: string): Promise<void> {
  for (const fn of stack.functions) {
    expect(fn.runtime, fn.logicalId).toBe('nodejs22.x');
    expect(fn.architectures, fn.logicalId).toEqual(['arm64']);
    const { module, export: name } = handlerEntry(fn.handler);
    const entries = await zipEntries(fn.zip);
    expect(entries, fn.logicalId).toContain(`${module}.mjs`);
    const chunks = entries.filter((e) => e !== `${module}.mjs`);
    expect(chunks.length, `${fn.logicalId}: the lazily imported clients are chunks`).toBeGreaterThan(0);
    for (const chunk of chunks)
      expect(chunk, fn.logicalId).toMatch(new RegExp(`^${module}\\.chunks/[^/]+\\.mjs$`));
    const dir = await unzipped(fn.zip, scratch);
    const entry = join(dir, `${module}.mjs`);
    // Every chunk too: what a first invocation imports must resolve within the zip.
    const lazy = JSON.stringify(chunks.map((c) => join(dir, c)));
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(entry)}); for (const c of ${lazy}) await import(c); console.log(typeof m.${name})`,
      ],
      { env: { PATH: process.env.PATH } },
    );
    expect(stdout.trim(), fn.handler).toBe('function');
  }
}

/**
 * The kustomize layer holds both render engines (kustomize-render, and helm-render beside it) for
 * arm64 where the reconcile function looks for them.
 */
export async function expectKustomizeLayer(stack: PackagedStack, scratch: string): Promise<void> {
  expect(stack.layers.map((l) => l.logicalId)).toEqual(['KustomizeLambdaLayer']);
  const [layer] = stack.layers as [PackagedStack['layers'][number]];
  expect(layer.architectures).toEqual(['arm64']);
  expect((await zipEntries(layer.zip)).sort()).toEqual(['bin/helm-render', 'bin/kustomize-render']);
  const bin = join(await unzipped(layer.zip, scratch), 'bin');
  for (const name of ['kustomize-render', 'helm-render'])
    expect(elfMachine(readFileSync(join(bin, name))), `ELF machine of bin/${name} (183: AArch64)`).toBe(183);
  const reconcile = stack.functions.find((f) => f.logicalId === 'ReconcileLambdaFunction');
  expect(reconcile?.layers).toEqual(['KustomizeLambdaLayer']);
  // A layer's files land under /opt.
  expect(reconcile?.environment.LIGHTKEEPER_KUSTOMIZE_BIN).toBe('/opt/bin/kustomize-render');
}
