// Clones written by fetchCommit, read by the pack reader, with git as the oracle on both sides: the
// files equal `git show` in the served repository, and `git fsck` accepts the clone.
import { execFileSync } from 'node:child_process';
import fs, { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBlob } from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
import { fetchCommit, readManifestFiles } from '../../../lib/git';
import type { IndexedObjects } from '../../../lib/git/indexedObjects';
import { commit, createRepo, git, type TestRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';

const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const caches: string[] = [];
let server: GitServer;
let repo: TestRepo;

function cacheRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lk-read-after-fetch-'));
  caches.push(dir);
  return dir;
}

/** What readManifestFiles returns, against `git ls-tree` and `git show` in the served repository. */
async function expectFilesAsGitHasThem(
  dir: string,
  sha: string,
  indexed?: IndexedObjects,
  served: TestRepo = repo,
): Promise<void> {
  const files = await readManifestFiles({ dir, commit: sha, indexed });
  const listed = git(served, 'ls-tree', '-r', sha)
    .split('\n')
    .map((line) => /^\d+ blob ([0-9a-f]{40})\t(.+)$/.exec(line))
    .filter((match) => match !== null);
  expect(files.map((f) => [f.path, f.oid])).toEqual(listed.map((m) => [m[2], m[1]]));
  for (const file of files) {
    const shown = execFileSync('git', ['-C', served.dir, 'cat-file', 'blob', file.oid], { env });
    expect(Buffer.from(file.content).equals(shown)).toBe(true);
  }
}

const lines = Array.from({ length: 400 }, (_, i) => `  key${i}: value number ${i}`);
const big = () => `data:\n${lines.join('\n')}\n`;

beforeAll(async () => {
  server = await startGitServer();
  repo = createRepo(server, 'history');
});

afterAll(async () => {
  await server?.close();
  for (const dir of caches) rmSync(dir, { recursive: true, force: true });
});

describe('reading a clone fetchCommit wrote', () => {
  it('reads a fetched commit from the objects its fetch indexed, as git has them', async () => {
    const served = createRepo(server, 'indexed');
    const root = cacheRoot();
    const text = (changed: string) => `data:\n${lines.map((l, i) => (i === 3 ? changed : l)).join('\n')}\n`;
    const first = commit(served, { 'big.yaml': text('  k: v'), 'apps/a.yaml': 'a: 1\n' }, 'first');
    const fetched = await fetchCommit({ url: served.url, reference: 'main', cacheRoot: root });
    await expectFilesAsGitHasThem(fetched.dir, first, fetched.indexed, served);
    // A first fetch brings every object of the commit: each file is taken from memory.
    for (const file of await readManifestFiles({ dir: fetched.dir, commit: first })) {
      expect(fetched.indexed?.get(file.oid)?.content).toEqual(Buffer.from(file.content));
    }
    // The next brings only what changed (a delta among them); the rest is read from the packs.
    const second = commit(served, { 'big.yaml': text('  k: changed'), 'apps/d.yaml': 'd: 4\n' }, 'second');
    const again = await fetchCommit({ url: served.url, reference: 'main', cacheRoot: root });
    await expectFilesAsGitHasThem(again.dir, second, again.indexed, served);
    const unchanged = await fetchCommit({ url: served.url, reference: 'main', cacheRoot: root });
    expect(unchanged.indexed).toBeUndefined();
  });

  it('reads both commits of two fetches into one clone, and git accepts the clone', async () => {
    const root = cacheRoot();
    const first = commit(repo, { 'big.yaml': big(), 'apps/a.yaml': 'a: 1\n', 'apps/b.json': '{}' }, 'first');
    const fetched = await fetchCommit({ url: repo.url, reference: 'main', cacheRoot: root });
    lines[7] = '  changed: in the second commit';
    const second = commit(repo, { 'big.yaml': big(), 'apps/c.yml': 'c: 3\n' }, 'second');
    const again = await fetchCommit({ url: repo.url, reference: 'main', cacheRoot: root });
    expect([fetched.commit, again.commit, again.dir]).toEqual([first, second, fetched.dir]);
    const { dir } = again;
    expect(readdirSync(join(dir, '.git', 'objects', 'pack')).filter((n) => n.endsWith('.pack'))).toHaveLength(
      2,
    );

    await expectFilesAsGitHasThem(dir, first);
    await expectFilesAsGitHasThem(dir, second);
    execFileSync('git', ['-C', dir, 'fsck', '--no-dangling'], { env, stdio: 'pipe' });
    // Each index the fetch wrote is the one git writes for that pack; isomorphic-git reads the clone.
    const packDir = join(dir, '.git', 'objects', 'pack');
    for (const name of readdirSync(packDir).filter((n) => n.endsWith('.pack'))) {
      const gitIdx = join(cacheRoot(), 'git.idx');
      execFileSync('git', ['index-pack', '-o', gitIdx, join(packDir, name)], { env, stdio: 'pipe' });
      expect(readFileSync(join(packDir, name.replace(/\.pack$/, '.idx'))).equals(readFileSync(gitIdx))).toBe(
        true,
      );
    }
    const { blob } = await readBlob({ fs, dir, oid: second, filepath: 'apps/c.yml' });
    expect(Buffer.from(blob).toString('utf8')).toBe('c: 3\n');
    const tree = execFileSync('git', ['-C', dir, 'ls-tree', '-r', '--name-only', second], {
      env,
      encoding: 'utf8',
    });
    expect(tree.trim().split('\n')).toEqual(['apps/a.yaml', 'apps/b.json', 'apps/c.yml', 'big.yaml']);
  });

  it("reads a commit from its own fetch's pack, never touching the packs of older fetches", async () => {
    const layered = createRepo(server, 'layered');
    const root = cacheRoot();
    const first = commit(layered, { 'a.yaml': 'a: 1\n', 'b.yaml': 'b: 1\n' }, 'first');
    const { dir } = await fetchCommit({ url: layered.url, reference: 'main', cacheRoot: root });
    const second = commit(layered, { 'a.yaml': 'a: 2\n' }, 'second');
    await fetchCommit({ url: layered.url, reference: 'main', cacheRoot: root });
    const packDir = join(dir, '.git', 'objects', 'pack');
    const older = readdirSync(packDir)
      .filter((n) => n.endsWith('.idx'))
      .find((n) =>
        execFileSync('git', ['show-index'], { input: readFileSync(join(packDir, n)) }).includes(first),
      );
    // The older pack (it also holds b.yaml and the apps of the second commit) becomes unreadable.
    const olderPack = join(packDir, (older as string).replace(/\.idx$/, '.pack'));
    const garbage = Buffer.alloc(readFileSync(olderPack).length, 0xee);
    chmodSync(olderPack, 0o644);
    writeFileSync(olderPack, garbage);

    const files = await readManifestFiles({ dir, commit: second });
    expect(files.map((f) => [f.path, Buffer.from(f.content).toString('utf8')])).toEqual([
      ['a.yaml', 'a: 2\n'],
      ['b.yaml', 'b: 1\n'],
    ]);
    const error = await readManifestFiles({ dir, commit: first }).catch((e) => e);
    expect(hasCode(error, 'GitFetchError')).toBe(true);
    expect(error.message).toContain(`object ${first} in the clone ${dir} is corrupt`);
  });

  it('fails with a GitFetchError naming the clone and the object when a pack is damaged', async () => {
    const damaged = createRepo(server, 'damaged');
    const sha = commit(damaged, { 'one.yaml': `one: ${'x'.repeat(2000)}\n` }, 'one');
    const { dir } = await fetchCommit({ url: damaged.url, reference: 'main', cacheRoot: cacheRoot() });
    const blob = execFileSync('git', ['-C', damaged.dir, 'rev-parse', `${sha}:one.yaml`], {
      env,
      encoding: 'utf8',
    }).trim();
    const packDir = join(dir, '.git', 'objects', 'pack');
    const name = readdirSync(packDir).find((n) => n.endsWith('.idx')) as string;
    const index = execFileSync('git', ['show-index'], { input: readFileSync(join(packDir, name)) }).toString(
      'utf8',
    );
    const offset = Number(
      index
        .split('\n')
        .find((line) => line.includes(blob))
        ?.split(' ')[0],
    );
    const packPath = join(packDir, name.replace(/\.idx$/, '.pack'));
    const pack = readFileSync(packPath);
    pack.fill(0x5a, offset + 8, offset + 40);
    chmodSync(packPath, 0o644);
    writeFileSync(packPath, pack);

    const error = await readManifestFiles({ dir, commit: sha }).catch((e) => e);
    expect(hasCode(error, 'GitFetchError')).toBe(true);
    expect(error.message).toContain(`object ${blob} in the clone ${dir} is corrupt`);
  });
});
