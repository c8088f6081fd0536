import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
import { fetchCommit, readManifestFiles } from '../../../lib/git';
import { COMPLETE_MARKER, cloneDirFor } from '../../../lib/git/cloneDir';
import { commit, createRepo, git, type TestRepo, tag } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';

const caches: string[] = [];
function cacheRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lk-git-cache-'));
  caches.push(dir);
  return dir;
}

async function fileMap(dir: string, sha: string): Promise<Record<string, string>> {
  const files = await readManifestFiles({ dir, commit: sha });
  return Object.fromEntries(files.map((f) => [f.path, Buffer.from(f.content).toString('utf8')]));
}

let server: GitServer;
let repo: TestRepo;
let first: string;
let second: string;

beforeAll(async () => {
  server = await startGitServer();
  repo = createRepo(server, 'app');
  first = commit(repo, { 'a.yaml': 'a: 1\n', 'gone.yaml': 'bye: true\n' }, 'first');
  second = commit(repo, { 'a.yaml': 'a: 2\n', 'gone.yaml': null }, 'second');
});

afterAll(async () => {
  await server?.close();
  for (const dir of caches) rmSync(dir, { recursive: true, force: true });
});

describe('fetchCommit', () => {
  it('fetches the tip of a branch, shallow', async () => {
    const { commit: sha, dir } = await fetchCommit({
      url: repo.url,
      reference: 'main',
      cacheRoot: cacheRoot(),
    });
    expect(sha).toBe(second);
    expect(await fileMap(dir, sha)).toEqual({ 'a.yaml': 'a: 2\n' });
    expect(await readManifestFiles({ dir, commit: first }).catch((e) => e.message)).toMatch(/not available/);
  });

  it('fetches a branch other than the default one', async () => {
    const feature = commit(repo, { 'f.yml': 'f: 1\n' }, 'feature', { branch: 'feature' });
    git(repo, 'checkout', '-q', 'main');
    const result = await fetchCommit({ url: repo.url, reference: 'feature', cacheRoot: cacheRoot() });
    expect(result.commit).toBe(feature);
  });

  it('peels annotated and lightweight tags to their commit', async () => {
    tag(repo, 'v1-annotated', first, 'release 1');
    tag(repo, 'v1-light', first);
    const root = cacheRoot();
    for (const reference of ['v1-annotated', 'v1-light', 'refs/tags/v1-annotated']) {
      const { commit: sha, dir } = await fetchCommit({ url: repo.url, reference, cacheRoot: root });
      expect(sha).toBe(first);
      expect(await fileMap(dir, sha)).toEqual({ 'a.yaml': 'a: 1\n', 'gone.yaml': 'bye: true\n' });
    }
  });

  it('fetches an older commit by full SHA; deleted files are gone in the newer one', async () => {
    const root = cacheRoot();
    const older = await fetchCommit({ url: repo.url, reference: first.toUpperCase(), cacheRoot: root });
    expect(older.commit).toBe(first);
    expect(Object.keys(await fileMap(older.dir, first))).toEqual(['a.yaml', 'gone.yaml']);
    const newer = await fetchCommit({ url: repo.url, reference: 'main', cacheRoot: root });
    expect(newer.dir).toBe(older.dir);
    expect(await fileMap(newer.dir, second)).toEqual({ 'a.yaml': 'a: 2\n' });
  });

  it('fails clearly for an unknown branch and an unknown commit', async () => {
    const root = cacheRoot();
    const branch = await fetchCommit({ url: repo.url, reference: 'nope', cacheRoot: root }).catch((e) => e);
    expect(hasCode(branch, 'GitFetchError')).toBe(true);
    expect(branch.message).toBe(`branch or tag nope not found in ${repo.url}`);
    const sha = 'f'.repeat(40);
    const missing = await fetchCommit({ url: repo.url, reference: sha, cacheRoot: root }).catch((e) => e);
    expect(hasCode(missing, 'GitFetchError')).toBe(true);
    expect(missing.message).toBe(`commit ${sha} not found in ${repo.url}`);
  });

  it('reuses the clone for the next fetch and sees new commits', async () => {
    const root = cacheRoot();
    const before = await fetchCommit({ url: repo.url, reference: 'main', cacheRoot: root });
    writeFileSync(join(before.dir, '.git', 'sentinel'), '');
    const third = commit(repo, { 'b.json': '{"b":1}' }, 'third');
    const after = await fetchCommit({ url: repo.url, reference: 'main', cacheRoot: root });
    expect(after).toMatchObject({ commit: third, dir: before.dir });
    expect(existsSync(join(after.dir, '.git', 'sentinel'))).toBe(true);
    expect(await fileMap(after.dir, third)).toEqual({ 'a.yaml': 'a: 2\n', 'b.json': '{"b":1}' });
  });

  it('does not fetch when the reference still points at a commit it has', async () => {
    const root = cacheRoot();
    const fetches = () => server.requests.filter((r) => r.startsWith('POST /app/git-upload-pack')).length;
    const { dir } = await fetchCommit({ url: repo.url, reference: 'main', cacheRoot: root });
    const before = fetches();
    expect(await fetchCommit({ url: repo.url, reference: 'main', cacheRoot: root })).toEqual({
      commit: git(repo, 'rev-parse', 'main'),
      dir,
    });
    expect(fetches()).toBe(before);
  });

  it('serializes concurrent fetches of the same URL', async () => {
    const root = cacheRoot();
    const results = await Promise.all(
      ['main', first, 'v1-light', 'main'].map((reference) =>
        fetchCommit({ url: repo.url, reference, cacheRoot: root }),
      ),
    );
    expect(new Set(results.map((r) => r.dir)).size).toBe(1);
    expect(results[1]?.commit).toBe(first);
  });

  it('never reuses a clone whose fetch failed half-way or lacks the completion marker', async () => {
    const big = createRepo(server, 'big');
    commit(big, { 'data.json': JSON.stringify(randomBytes(300_000).toString('base64')) }, 'big');
    const root = cacheRoot();
    server.faults.truncateNextUploadPack = 20_000;
    const failed = await fetchCommit({ url: big.url, reference: 'main', cacheRoot: root }).catch((e) => e);
    expect(hasCode(failed, 'GitFetchError')).toBe(true);
    expect(failed.message).toContain(`could not fetch ${big.url}`);
    expect(existsSync(cloneDirFor(big.url, root, undefined))).toBe(false);

    const ok = await fetchCommit({ url: big.url, reference: 'main', cacheRoot: root });
    expect((await fileMap(ok.dir, ok.commit))['data.json']).toHaveLength(400_002);

    writeFileSync(join(ok.dir, '.git', 'sentinel'), '');
    rmSync(join(ok.dir, '.git', COMPLETE_MARKER));
    const again = await fetchCommit({ url: big.url, reference: 'main', cacheRoot: root });
    expect(again.dir).toBe(ok.dir);
    expect(existsSync(join(again.dir, '.git', 'sentinel'))).toBe(false);
    expect(existsSync(join(again.dir, '.git', COMPLETE_MARKER))).toBe(true);
  });
});
