// A clone cache written to by someone else (a render that escaped its directory, another user of a
// shared temp dir) decides nothing: not where a fetch connects, not which commit it returns.
import { execFileSync } from 'node:child_process';
import fs, { appendFileSync, chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
import { fetchCommit } from '../../../lib/git';
import { cloneDirFor, isCloneComplete } from '../../../lib/git/cloneDir';
import { commit, createRepo, gitEnv, type TestRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';

const token = 'tok-5ecret-value';
const auth = { type: 'token', token } as const;

let server: GitServer;
let proxy: GitServer;
const roots: string[] = [];
const newRoot = () => {
  roots.push(mkdtempSync(join(tmpdir(), 'lk-planted-')));
  return roots.at(-1)!;
};

beforeAll(async () => {
  server = await startGitServer({ token });
  // The tenant's own git server, where a planted http.corsProxy would send the platform's fetch.
  proxy = await startGitServer();
});

afterAll(async () => {
  await server?.close();
  await proxy?.close();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('a clone whose files were planted', () => {
  it("does not follow http.corsProxy from the clone's .git/config", async () => {
    const repo = createRepo(server, 'platform');
    commit(repo, { 'a.yaml': 'a: 1\n' }, 'first');
    const cacheRoot = newRoot();
    const first = await fetchCommit({ url: repo.url, reference: 'main', auth, cacheRoot });
    expect(first.dir).toBe(cloneDirFor(repo.url, cacheRoot, auth));

    appendFileSync(
      join(first.dir, '.git', 'config'),
      `\n[http]\n\tcorsProxy = ${proxy.url('x').slice(0, -2)}\n`,
    );
    const second = commit(repo, { 'a.yaml': 'a: 2\n' }, 'second');

    // The planted setting is live: isomorphic-git called as lightkeeper called it before (no
    // corsProxy given) sends the fetch, and its Authorization header, to the tenant's server.
    const headers = { Authorization: `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}` };
    await git.fetch({ fs, http, dir: first.dir, url: repo.url, headers, remote: 'origin' }).catch(() => {});
    expect(proxy.requests).toEqual([
      `GET /${new URL(repo.url).host}/platform/info/refs?service=git-upload-pack`,
    ]);

    const fetched = await fetchCommit({ url: repo.url, reference: 'main', auth, cacheRoot }).catch((e) => e);
    expect(proxy.requests).toHaveLength(1);
    expect(fetched.commit).toBe(second);
  });

  it('refuses a fetch that brings another commit than the ref listing named, and keeps nothing of it', async () => {
    const repo = createRepo(server, 'moving');
    commit(repo, { 'a.yaml': 'a: 1\n' }, 'first');
    // Between the listing and the fetch's own request, the branch moves (a push, or a server that lies).
    const moving = await movingProxy(server, repo);
    try {
      const cacheRoot = newRoot();
      const url = moving.url(repo.name);
      const error = await fetchCommit({ url, reference: 'main', auth, cacheRoot }).catch((e) => e);
      expect(hasCode(error, 'GitFetchError')).toBe(true);
      expect(error.message).toMatch(
        /refs\/heads\/main was listed at [0-9a-f]{40} but the fetch brought [0-9a-f]{40}/,
      );
      expect(isCloneComplete(cloneDirFor(url, cacheRoot, auth))).toBe(false);
    } finally {
      await moving.close();
    }
  });

  it('refuses a clone cache root that others may write to, or that is a link', async () => {
    const repo = createRepo(server, 'shared');
    commit(repo, { 'a.yaml': 'a: 1\n' }, 'first');
    const open = join(newRoot(), 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const linked = join(newRoot(), 'linked');
    symlinkSync(newRoot(), linked);
    for (const cacheRoot of [open, linked]) {
      const error = await fetchCommit({ url: repo.url, reference: 'main', auth, cacheRoot }).catch((e) => e);
      expect(hasCode(error, 'GitFetchError')).toBe(true);
      expect(error.message).toContain(`clone cache ${cacheRoot}`);
    }
  });
});

/**
 * A real HTTP proxy in front of `upstream` that commits to `repo` right before it forwards the
 * second ref advertisement: the fetch's own listing then names a newer commit than the first did.
 */
async function movingProxy(
  upstream: GitServer,
  repo: TestRepo,
): Promise<{ url: (name: string) => string; close: () => Promise<void> }> {
  const target = new URL(upstream.url(repo.name));
  let listings = 0;
  const proxyServer: Server = createServer((req, res) => {
    if (req.url?.includes('/info/refs') && ++listings === 2) {
      execFileSync('git', ['-C', repo.dir, 'commit', '-q', '--allow-empty', '-m', 'moved'], { env: gitEnv });
    }
    const forward = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxyServer.listen(0, '127.0.0.1', resolve));
  const { port } = proxyServer.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    close: async () => {
      proxyServer.closeAllConnections();
      await new Promise<void>((resolve) => proxyServer.close(() => resolve()));
    },
  };
}
