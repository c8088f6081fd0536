import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode, isGitLimitError } from '../../../lib/errors';
import { fetchCommit, readManifestFiles } from '../../../lib/git';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import { DEFAULT_GIT_LIMITS } from '../../../lib/settings/sourceLimits';

describe('readManifestFiles', () => {
  let server: GitServer;
  let cacheRoot: string;
  let dir: string;
  let sha: string;
  const paths = async (subPath?: string) =>
    (await readManifestFiles({ dir, commit: sha, subPath })).map((file) => file.path);
  const failure = (subPath: string) => readManifestFiles({ dir, commit: sha, subPath }).catch((e) => e);

  beforeAll(async () => {
    server = await startGitServer();
    const repo = createRepo(server, 'manifests');
    const first = commit(repo, { 'root.yaml': 'root: 1\n' }, 'first');
    sha = commit(
      repo,
      {
        'README.md': '# readme\n',
        'single.yaml': 'single: 1\n',
        'apps/a.yaml': 'kind: A\n',
        'apps/b.YML': 'kind: B\n',
        'apps/c.Json': '{"kind":"C"}',
        'apps/notes.txt': 'not a manifest\n',
        'apps/conf.yaml/inner.json': '{}',
        'apps/nested/deep/d.yaml': 'kind: D\n',
        'apps/nested/x.yaml.bak': 'backup\n',
        'apps2/z.yaml': 'kind: Z\n',
        'docs/only.txt': 'text\n',
      },
      'second',
      {
        symlinks: { 'apps/evil.yaml': '../../../../../etc/passwd', 'apps/linked': '/etc' },
        gitlinks: { 'apps/module.yaml': first },
      },
    );
    cacheRoot = mkdtempSync(join(tmpdir(), 'lk-git-cache-'));
    ({ dir } = await fetchCommit({ url: repo.url, reference: 'main', cacheRoot }));
  });

  afterAll(async () => {
    await server?.close();
    rmSync(cacheRoot, { recursive: true, force: true });
  });

  it('reads every manifest of the commit by default, sorted, skipping symlinks and submodules', async () => {
    expect(await paths()).toEqual([
      'apps/a.yaml',
      'apps/b.YML',
      'apps/c.Json',
      'apps/conf.yaml/inner.json',
      'apps/nested/deep/d.yaml',
      'apps2/z.yaml',
      'root.yaml',
      'single.yaml',
    ]);
    expect(await paths('.')).toEqual(await paths(''));
  });

  it('returns the blob contents as bytes, with the blob id', async () => {
    const files = await readManifestFiles({ dir, commit: sha, subPath: 'apps/nested' });
    // A git blob id is the SHA-1 of `blob <size>\0<content>`.
    const oid = createHash('sha1').update('blob 8\0kind: D\n').digest('hex');
    expect(files).toEqual([
      { path: 'apps/nested/deep/d.yaml', oid, content: new TextEncoder().encode('kind: D\n') },
    ]);
    expect(files[0]?.content).toBeInstanceOf(Uint8Array);
  });

  it('skips the content of files the caller knows, counting their size against the limits', async () => {
    const all = await readManifestFiles({ dir, commit: sha });
    const known = new Map(
      all.filter((f) => f.path.startsWith('apps/')).map((f) => [f.oid, f.content.length]),
    );
    const files = await readManifestFiles({ dir, commit: sha, known: (_, oid) => known.get(oid) });
    expect(files.map((f) => f.path)).toEqual(all.map((f) => f.path));
    for (const f of files)
      if (f.path.startsWith('apps/')) expect(f).toMatchObject({ unread: true, content: new Uint8Array(0) });
      else expect(f).toEqual(all.find((a) => a.path === f.path));
    // The sizes still count: a byte limit one below every file's total refuses the read.
    const bytes = all.reduce((n, f) => n + f.content.length, 0);
    const over = await readManifestFiles({
      dir,
      commit: sha,
      known: (_, oid) => known.get(oid),
      limits: { ...DEFAULT_GIT_LIMITS, maxReadBytes: bytes - 1 },
    }).catch((e) => e);
    expect(isGitLimitError(over)).toBe(true);
  });

  it('reads only under subPath, recursively', async () => {
    const apps = [
      'apps/a.yaml',
      'apps/b.YML',
      'apps/c.Json',
      'apps/conf.yaml/inner.json',
      'apps/nested/deep/d.yaml',
    ];
    expect(await paths('apps')).toEqual(apps);
    expect(await paths('apps/')).toEqual(apps);
    expect(await paths('apps/conf.yaml')).toEqual(['apps/conf.yaml/inner.json']);
  });

  it('returns nothing for a directory without manifests', async () => {
    expect(await paths('docs')).toEqual([]);
  });

  it.each(['../apps', 'apps/../apps2', '/apps', './apps', 'apps//nested', 'apps/./nested', '..'])(
    'refuses the subPath %j',
    async (subPath) => {
      const error = await failure(subPath);
      expect(hasCode(error, 'GitFetchError')).toBe(true);
      expect(error.message).toMatch(/^invalid subPath /);
    },
  );

  it.each(['nope', 'apps/nope', 'apps/nested/deep/nope'])(
    'fails for the missing subPath %j',
    async (subPath) => {
      const error = await failure(subPath);
      expect(hasCode(error, 'GitFetchError')).toBe(true);
      expect(error.message).toBe(`subPath ${subPath} does not exist at commit ${sha}`);
    },
  );

  it.each(['single.yaml', 'apps/a.yaml/x', 'apps/evil.yaml', 'apps/linked', 'apps/module.yaml'])(
    'fails for the subPath %j that is not a directory',
    async (subPath) => {
      const error = await failure(subPath);
      expect(hasCode(error, 'GitFetchError')).toBe(true);
      expect(error.message).toMatch(new RegExp(`^subPath ${subPath} is not a directory at commit ${sha}`));
    },
  );

  it('fails for a commit the clone does not hold', async () => {
    const error = await readManifestFiles({ dir, commit: 'a'.repeat(40) }).catch((e) => e);
    expect(hasCode(error, 'GitFetchError')).toBe(true);
  });
});
