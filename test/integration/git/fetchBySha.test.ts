import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
import { fetchCommit, readManifestFiles } from '../../../lib/git';
import { commit, createRepo, git, tag } from '../../../lib/localstack/gitRepo';
import { type GitServer, type GitServerOptions, startGitServer } from '../../../lib/localstack/gitServer';

const modes: Array<[string, GitServerOptions]> = [
  ['plain git http-backend', {}],
  ['allowAnySHA1InWant', { allowAnySha: true }],
  ['a server that only serves advertised tips', { tipsOnly: true }],
];

describe.each(modes)('fetchCommit by full SHA against %s', (_, options) => {
  let server: GitServer;
  let url: string;
  const shas: Record<string, string> = {};
  const caches: string[] = [];
  const cacheRoot = () => {
    caches.push(mkdtempSync(join(tmpdir(), 'lk-git-cache-')));
    return caches.at(-1)!;
  };
  const uploadPacks = () =>
    server.requests.filter((r) => r.startsWith('POST') && r.endsWith('/git-upload-pack')).length;
  const version = async (dir: string, sha: string) => {
    const [file] = await readManifestFiles({ dir, commit: sha });
    return Buffer.from(file!.content).toString('utf8');
  };

  beforeAll(async () => {
    server = await startGitServer(options);
    const repo = createRepo(server, 'app');
    url = repo.url;
    for (const n of [1, 2, 3]) shas[`main${n}`] = commit(repo, { 'v.yaml': `main${n}` }, `main ${n}`);
    shas.release = commit(repo, { 'v.yaml': 'release' }, 'release', { branch: 'release' });
    shas.tagged = commit(repo, { 'v.yaml': 'tagged' }, 'tagged', { branch: 'tmp' });
    tag(repo, 'only-tag', shas.tagged, 'reachable from this tag only');
    git(repo, 'checkout', '-q', 'main');
    git(repo, 'branch', '-D', 'tmp');
  });

  afterAll(async () => {
    await server?.close();
    for (const dir of caches) rmSync(dir, { recursive: true, force: true });
  });

  it('fetches an older commit of the default branch, then needs no request for it', async () => {
    const root = cacheRoot();
    const { commit: sha, dir } = await fetchCommit({ url, reference: shas.main1!, cacheRoot: root });
    expect(sha).toBe(shas.main1);
    expect(await version(dir, sha)).toBe('main1');
    const before = server.requests.length;
    expect(await fetchCommit({ url, reference: shas.main1!, cacheRoot: root })).toEqual({ commit: sha, dir });
    expect(server.requests.length).toBe(before);
  });

  it('fetches commits reachable only from another branch or only from a tag', async () => {
    const root = cacheRoot();
    for (const name of ['release', 'tagged']) {
      const { commit: sha, dir } = await fetchCommit({ url, reference: shas[name]!, cacheRoot: root });
      expect(sha).toBe(shas[name]);
      expect(await version(dir, sha)).toBe(name);
    }
  });

  it('fetches an older commit into a clone that already holds a shallow branch', async () => {
    const root = cacheRoot();
    const tip = await fetchCommit({ url, reference: 'main', cacheRoot: root });
    expect(tip.commit).toBe(shas.main3);
    const before = uploadPacks();
    const old = await fetchCommit({ url, reference: shas.main2!, cacheRoot: root });
    expect(old.dir).toBe(tip.dir);
    expect(await version(old.dir, shas.main2!)).toBe('main2');
    expect(await version(old.dir, shas.main3!)).toBe('main3');
    // Direct fetch by SHA takes one upload-pack request; the fallback needs more.
    expect(uploadPacks() - before).toBe(options.tipsOnly ? 2 : 1);
  });

  it('fails with "commit X not found in URL" for a commit the server does not have', async () => {
    const root = cacheRoot();
    const sha = '0123456789abcdef0123456789abcdef01234567';
    const error = await fetchCommit({ url, reference: sha, cacheRoot: root }).catch((e) => e);
    expect(hasCode(error, 'GitFetchError')).toBe(true);
    expect(error.message).toBe(`commit ${sha} not found in ${url}`);
    expect(error.subject).toBe(url);
    // The search left a usable clone behind.
    expect((await fetchCommit({ url, reference: shas.main1!, cacheRoot: root })).commit).toBe(shas.main1);
  });
});
