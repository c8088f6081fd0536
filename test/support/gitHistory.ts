// Repositories with history for the pack reader and indexer tests, built with git itself.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { gitEnv } from '../../lib/localstack/gitRepo';

export const git = (dir: string, args: string[], input?: string | Buffer): Buffer =>
  execFileSync('git', ['-C', dir, ...args], { env: gitEnv, input, maxBuffer: 64 * 1024 * 1024 });

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temp dir removed after the test file. */
export function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lk-packs-'));
  temps.push(dir);
  return dir;
}

/** A repository whose big file changes one line per commit, so packs hold long delta chains. */
export function historyRepo(commits: number): { dir: string; shas: string[] } {
  const dir = temp();
  git(dir, ['init', '-q', '-b', 'main']);
  const lines = Array.from({ length: 300 }, (_, i) => `  key${i}: value number ${i} of the manifest`);
  const shas: string[] = [];
  for (let n = 0; n < commits; n++) {
    lines[(n * 37) % lines.length] = `  changed${n}: in commit ${n}`;
    writeFileSync(join(dir, 'big.yaml'), `data:\n${lines.join('\n')}\n`);
    writeFileSync(join(dir, `small-${n % 3}.yaml`), `n: ${n}\n`);
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', `commit ${n}`]);
    shas.push(git(dir, ['rev-parse', 'HEAD']).toString().trim());
  }
  return { dir, shas };
}

/**
 * A new clone holding the pack of `first`'s history, and the thin pack of `second` against it that
 * a fetch would receive (its REF_DELTA bases are in the clone, not in the thin pack).
 */
export function cloneWithThinPack(
  source: string,
  first: string,
  second: string,
): { clone: string; packDir: string; thin: Buffer } {
  const clone = temp();
  git(clone, ['init', '-q']);
  const packDir = join(clone, '.git', 'objects', 'pack');
  git(source, ['pack-objects', '-q', '--revs', join(packDir, 'pack')], `${first}\n`);
  const thin = git(source, ['pack-objects', '-q', '--revs', '--thin', '--stdout'], `${second}\n^${first}\n`);
  return { clone, packDir, thin };
}
