import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'package-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm run package', () => {
  it('builds the three zips and the kustomize layer without source maps and leaves nothing in the OS temp dir', async () => {
    const tmp = join(work, 'tmp');
    const out = join(work, 'out');
    mkdirSync(tmp);
    // npm on Node 22 keeps a compile cache of its own modules in the OS temp dir: not ours to check.
    await run('npm', ['run', 'package', '--', '--package', out], {
      env: { ...process.env, TMPDIR: tmp, SLS_TELEMETRY_DISABLED: '1', NODE_DISABLE_COMPILE_CACHE: '1' },
    });
    expect(
      readdirSync(out)
        .filter((f) => f.endsWith('.zip'))
        .sort(),
    ).toEqual(['kustomize.zip', 'reconcile.zip', 'sweep.zip', 'webhook.zip']);
    // The kustomize layer: the engine for the functions' architecture, found at /opt/bin.
    const { stdout: layer } = await run('unzip', ['-Z1', join(out, 'kustomize.zip')]);
    expect(layer.trim().split('\n')).toEqual(['bin/kustomize-render']);
    const template = readFileSync(join(out, 'cloudformation-template-update-stack.json'), 'utf8');
    expect(template).toContain('"LIGHTKEEPER_KUSTOMIZE_BIN": "/opt/bin/kustomize-render"');
    for (const fn of ['webhook', 'reconcile', 'sweep']) {
      const { stdout } = await run('unzip', ['-Z1', join(out, `${fn}.zip`)]);
      expect(stdout.trim().split('\n'), fn).toEqual([`functions/${fn}.mjs`]);
    }
    expect(readdirSync(tmp)).toEqual([]);
  });
});
