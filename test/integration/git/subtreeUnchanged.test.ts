import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subtreeUnchanged } from '../../../lib/git/subtreeUnchanged';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';

describe('subtreeUnchanged', () => {
  let server: GitServer;
  let cacheRoot: string;
  let url: string;
  let first: string;
  let appOnly: string;
  let crdsToo: string;
  const unchanged = (subPath: string, from: string, to: string) =>
    subtreeUnchanged({ url, subPath, from, to, cacheRoot });

  beforeAll(async () => {
    server = await startGitServer();
    const repo = createRepo(server, 'subtrees');
    url = repo.url;
    first = commit(repo, { 'crds/a.yaml': 'kind: A\n', 'app/x.yaml': 'x: 1\n' }, 'first');
    appOnly = commit(repo, { 'app/x.yaml': 'x: 2\n' }, 'the app only');
    crdsToo = commit(repo, { 'crds/a.yaml': 'kind: B\n' }, 'the CRDs');
    cacheRoot = mkdtempSync(join(tmpdir(), 'lk-subtree-'));
  });

  afterAll(async () => {
    await server?.close();
    rmSync(cacheRoot, { recursive: true, force: true });
  });

  it('holds a folder a commit did not touch to be unchanged, across commits fetched by SHA', async () => {
    expect(await unchanged('crds', first, appOnly)).toBe(true);
    expect(await unchanged('crds/', first, appOnly)).toBe(true);
  });

  it('sees the folder a commit touched, and the root, as changed', async () => {
    expect(await unchanged('app', first, appOnly)).toBe(false);
    expect(await unchanged('crds', appOnly, crdsToo)).toBe(false);
    expect(await unchanged('crds', first, crdsToo)).toBe(false);
    expect(await unchanged('', first, appOnly)).toBe(false);
  });

  it('counts a folder missing at either commit as changed', async () => {
    expect(await unchanged('nowhere', first, appOnly)).toBe(false);
  });

  it('compares the whole commit for a folder whose files may read elsewhere (a kustomization)', async () => {
    const repo = createRepo(server, 'kustomized');
    const base = commit(
      repo,
      { 'k/kustomization.yaml': 'resources: [../base]\n', 'base/a.yaml': 'a: 1\n' },
      'k',
    );
    const baseChanged = commit(repo, { 'base/a.yaml': 'a: 2\n' }, 'the base');
    const kustomized = (names: string[]) => names.includes('kustomization.yaml');
    const opts = { url: repo.url, subPath: 'k', from: base, to: baseChanged, cacheRoot };
    expect(await subtreeUnchanged(opts)).toBe(true);
    expect(await subtreeUnchanged({ ...opts, readsOutside: kustomized })).toBe(false);
    expect(await subtreeUnchanged({ ...opts, to: base, readsOutside: kustomized })).toBe(true);
  });

  it('fails like a fetch for a commit the repository does not have', async () => {
    await expect(unchanged('crds', 'f'.repeat(40), appOnly)).rejects.toMatchObject({ code: 'GitFetchError' });
  });
});
