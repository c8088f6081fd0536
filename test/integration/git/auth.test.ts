import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
import { fetchCommit } from '../../../lib/git';
import { commit, createRepo, type TestRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';

const token = 'tok-5ecret-value';

describe('fetchCommit against a server requiring a token', () => {
  let server: GitServer;
  let repo: TestRepo;
  let head: string;
  let cacheRoot: string;

  beforeAll(async () => {
    server = await startGitServer({ token });
    repo = createRepo(server, 'private');
    head = commit(repo, { 'a.yaml': 'a: 1\n' }, 'first');
    cacheRoot = mkdtempSync(join(tmpdir(), 'lk-git-cache-'));
  });

  afterAll(async () => {
    await server?.close();
    rmSync(cacheRoot, { recursive: true, force: true });
  });

  it('authenticates with a token or with basic credentials', async () => {
    for (const auth of [
      { type: 'token', token },
      { type: 'basic', username: 'me', password: token },
    ] as const) {
      const root = join(cacheRoot, auth.type);
      expect((await fetchCommit({ url: repo.url, reference: 'main', auth, cacheRoot: root })).commit).toBe(
        head,
      );
    }
  });

  it.each([
    ['no credentials', undefined],
    ['a wrong token', { type: 'token', token: 'wr0ng-t0ken-value' }],
    ['a wrong password', { type: 'basic', username: 'me', password: 'wr0ng-t0ken-value' }],
  ] as const)('fails clearly with %s, without printing the secret', async (_, auth) => {
    for (const reference of ['main', head]) {
      const error = await fetchCommit({ url: repo.url, reference, auth, cacheRoot }).catch((e) => e);
      expect(hasCode(error, 'GitFetchError')).toBe(true);
      expect(error.message).toBe(`authentication failed for ${repo.url} (HTTP 401)`);
      expect(error.subject).toBe(repo.url);
      expect(JSON.stringify({ message: error.message, stack: error.stack })).not.toContain('wr0ng');
    }
  });

  it('does not print credentials embedded in the URL', async () => {
    const url = repo.url.replace('http://', 'http://me:wr0ng-t0ken-value@');
    const error = await fetchCommit({ url, reference: 'main', cacheRoot }).catch((e) => e);
    expect(error.message).toBe(`authentication failed for ${repo.url} (HTTP 401)`);
    expect(`${error.message} ${error.subject} ${error.stack}`).not.toContain('wr0ng');
  });
});
