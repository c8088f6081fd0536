import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshClone } from '../../support/freshClone';
import { runWithDeadline } from '../../support/runWithDeadline';

const work = mkdtempSync(join(tmpdir(), 'package-failure-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// A build that fails: osls reports esbuild's error and then never exits by itself, since
// serverless-esbuild leaves esbuild's service running (floydspace/serverless-esbuild#532).
// `npm run package` (infra/osls.mjs) must end, failed, with the error shown, and leave nothing behind.
describe('npm run package of a build that fails', () => {
  it('ends with exit 1 and esbuild’s error, well before a deadline', async () => {
    const tree = freshClone(join(work, 'tree'));
    const tmp = join(work, 'tmp');
    mkdirSync(tmp);
    const sls = join(tree, 'serverless.yml');
    const original = readFileSync(sls, 'utf8');
    const broken = original.replace(
      'undici: ./infra/bundle/undici-core.cjs',
      'undici: ./infra/bundle/missing.cjs',
    );
    expect(broken).not.toBe(original);
    writeFileSync(sls, broken);
    const started = Date.now();
    const result = await runWithDeadline('npm', ['run', 'package'], {
      cwd: tree,
      env: { ...process.env, TMPDIR: tmp, SLS_TELEMETRY_DISABLED: '1', NODE_DISABLE_COMPILE_CACHE: '1' },
      timeoutMs: 300_000,
    });
    const tookS = (Date.now() - started) / 1000;
    console.error(`[package] a failing build ended in ${tookS.toFixed(1)}s`);
    expect(result.timedOut).toBe(false);
    expect(result.code).toBe(1);
    expect(result.output).toContain('Could not resolve "./infra/bundle/missing.cjs"');
    expect(result.output).toContain('osls reported an error and did not exit');
    expect(readdirSync(tmp)).toEqual([]);
  }, 360_000);
});
