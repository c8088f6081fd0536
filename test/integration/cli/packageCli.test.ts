import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'package-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm run package', () => {
  it('builds the three zips without source maps and leaves nothing in the OS temp dir', async () => {
    const tmp = join(work, 'tmp');
    const out = join(work, 'out');
    mkdirSync(tmp);
    await run('npm', ['run', 'package', '--', '--package', out], {
      env: { ...process.env, TMPDIR: tmp, SLS_TELEMETRY_DISABLED: '1' },
    });
    expect(
      readdirSync(out)
        .filter((f) => f.endsWith('.zip'))
        .sort(),
    ).toEqual(['reconcile.zip', 'sweep.zip', 'webhook.zip']);
    for (const fn of ['webhook', 'reconcile', 'sweep']) {
      const { stdout } = await run('unzip', ['-Z1', join(out, `${fn}.zip`)]);
      expect(stdout.trim().split('\n'), fn).toEqual([`functions/${fn}.mjs`]);
    }
    expect(readdirSync(tmp)).toEqual([]);
  });
});
