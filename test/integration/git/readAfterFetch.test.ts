// Clones written by fetchCommit, read by the pack reader, with git as the oracle on both sides: the
// files equal `git show` in the served repository, and `git fsck` accepts the clone.
import { execFileSync } from 'node:child_process';
import fs, {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBlob } from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitFetchError, hasCode } from '../../../lib/errors';
import { fetchCommit, readManifestFiles } from '../../../lib/git';
import { MAX_CLONE_PACKS } from '../../../lib/git/cloneDir';
import { discardIfDamaged } from '../../../lib/git/damagedClone';
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

  it('fetches only what the clone lacks, completed with its delta bases, and reads the rest from older packs', async () => {
    const layered = createRepo(server, 'layered');
    const root = cacheRoot();
    const text = (changed: string) => `data:\n${lines.map((l, i) => (i === 5 ? changed : l)).join('\n')}\n`;
    const first = commit(layered, { 'a.yaml': text('  a: 1'), 'b.yaml': 'b: 1\n' }, 'first');
    const { dir } = await fetchCommit({ url: layered.url, reference: 'main', cacheRoot: root });
    const second = commit(layered, { 'a.yaml': text('  a: 2') }, 'second');
    const again = await fetchCommit({ url: layered.url, reference: 'main', cacheRoot: root });
    const packDir = join(dir, '.git', 'objects', 'pack');
    const oidsOf = (idx: string) =>
      execFileSync('git', ['show-index'], { input: readFileSync(join(packDir, idx)), encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[1] as string);
    const blobOf = (sha: string, path: string) => git(layered, 'rev-parse', `${sha}:${path}`);
    const [newer, ...rest] = readdirSync(packDir)
      .filter((n) => n.endsWith('.idx'))
      .sort((x, y) => Number(oidsOf(x).includes(first)) - Number(oidsOf(y).includes(first)));
    expect(rest).toHaveLength(1);
    // The second fetch brought the commit, its root tree and the changed file, not the unchanged
    // one: the server sent a thin pack (a.yaml a delta of the version the clone had), stored
    // completed with that base, as `git index-pack --fix-thin` stores it.
    const brought = oidsOf(newer as string);
    expect(brought).toEqual(expect.arrayContaining([second, git(layered, 'rev-parse', `${second}^{tree}`)]));
    expect(brought).toEqual(expect.arrayContaining([blobOf(second, 'a.yaml'), blobOf(first, 'a.yaml')]));
    expect(brought).not.toContain(blobOf(first, 'b.yaml'));
    expect(again.indexed?.get(blobOf(second, 'a.yaml'))).toBeDefined();
    expect(again.indexed?.get(blobOf(first, 'b.yaml'))).toBeUndefined();
    execFileSync('git', ['-C', dir, 'fsck', '--no-dangling'], { env, stdio: 'pipe' });
    execFileSync('git', ['verify-pack', join(packDir, newer as string)], { env, stdio: 'pipe' });
    await expectFilesAsGitHasThem(dir, second, again.indexed, layered);
    await expectFilesAsGitHasThem(dir, first, undefined, layered);

    // b.yaml is read from the first fetch's pack: damaged, the read of the second commit fails.
    const olderPack = join(packDir, (rest[0] as string).replace(/\.idx$/, '.pack'));
    chmodSync(olderPack, 0o644);
    writeFileSync(olderPack, Buffer.alloc(readFileSync(olderPack).length, 0xee));
    const error = await readManifestFiles({ dir, commit: second }).catch((e) => e);
    expect(hasCode(error, 'GitFetchError')).toBe(true);
    expect(error.message).toContain(`in the clone ${dir} is corrupt`);
  });

  it(`fetches into a new clone once the clone holds more than ${MAX_CLONE_PACKS} packs`, async () => {
    const pushed = createRepo(server, 'many-pushes');
    const root = cacheRoot();
    let sha = commit(pushed, { 'a.yaml': 'a: 0\n', 'b.yaml': 'b: 0\n' }, 'push 0');
    const { dir } = await fetchCommit({ url: pushed.url, reference: 'main', cacheRoot: root });
    const packDir = join(dir, '.git', 'objects', 'pack');
    const packs = () => readdirSync(packDir).filter((n) => n.endsWith('.pack')).length;
    for (let i = 1; i <= MAX_CLONE_PACKS; i++) {
      sha = commit(pushed, { 'a.yaml': `a: ${i}\n` }, `push ${i}`);
      await fetchCommit({ url: pushed.url, reference: 'main', cacheRoot: root });
      expect(packs()).toBe(i + 1);
    }
    await expectFilesAsGitHasThem(dir, sha, undefined, pushed);
    sha = commit(pushed, { 'a.yaml': 'a: past the bound\n' }, 'one push more');
    const fresh = await fetchCommit({ url: pushed.url, reference: 'main', cacheRoot: root });
    expect([fresh.dir, packs()]).toEqual([dir, 1]);
    await expectFilesAsGitHasThem(dir, sha, fresh.indexed, pushed);
  });

  it('fails with a GitFetchError naming the clone and the object when a pack is damaged', async () => {
    const damaged = createRepo(server, 'damaged');
    const sha = commit(damaged, { 'one.yaml': `one: ${'x'.repeat(2000)}\n` }, 'one');
    const root = cacheRoot();
    const { dir } = await fetchCommit({ url: damaged.url, reference: 'main', cacheRoot: root });
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

    // The damaged clone is discarded: the next fetch of the same commit starts a new one.
    expect(await discardIfDamaged(dir, new GitFetchError('the server went away', { subject: 'x' }))).toBe(
      false,
    );
    expect(existsSync(dir)).toBe(true);
    expect(await discardIfDamaged(dir, error)).toBe(true);
    expect(existsSync(dir)).toBe(false);
    const again = await fetchCommit({ url: damaged.url, reference: 'main', cacheRoot: root });
    expect([again.dir, again.indexed?.get(blob)]).toEqual([dir, expect.anything()]);
    await expectFilesAsGitHasThem(dir, sha, undefined, damaged);
  });
});
