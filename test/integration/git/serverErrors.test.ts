import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
import { fetchCommit } from '../../../lib/git';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, kubeClient } from '../../support/cluster';
import { createGitTrack, engine, trackStatus } from '../../support/engine';

// What an internal service answers a tenant who points a track at it.
const MARKER = 'INTERNAL-ONLY-7f3a';
const page = `<html><body><h1>${MARKER}</h1> admin console</body></html>`;

/**
 * A loopback HTTP server that is not a git server (an internal service a tenant might name), plus a
 * path that lists refs through a real git server and then fails the pack request.
 */
function startInternalService(git: GitServer, repoPath: string): Promise<Server> {
  const server = createServer(async (req, res) => {
    const path = req.url ?? '/';
    if (path.startsWith('/pack-fails/')) {
      if (req.method === 'GET') {
        const upstream = await fetch(`${git.url(repoPath)}${path.slice('/pack-fails/repo'.length)}`);
        res.writeHead(upstream.status, { 'Content-Type': upstream.headers.get('content-type') ?? '' });
        res.end(Buffer.from(await upstream.arrayBuffer()));
        return;
      }
      res.writeHead(500, `Failed ${MARKER}`, { 'Content-Type': 'text/html' }).end(page);
      return;
    }
    const [status, type] = (
      {
        '/not-found/': [404, 'text/html'],
        '/broken/': [500, 'text/html'],
        '/denied/': [403, 'text/plain'],
        '/html/': [200, 'text/html'],
        '/garbage/': [200, 'application/x-git-upload-pack-advertisement'],
        '/pkt-line/': [200, 'application/x-git-upload-pack-advertisement'],
      } as Record<string, [number, string]>
    )[path.slice(0, path.indexOf('/', 1) + 1)] ?? [404, 'text/plain'];
    // A pkt-line framed body gets past the framing, so the parser quotes it in its own error.
    const body = path.startsWith('/pkt-line/')
      ? `${(page.length + 4).toString(16).padStart(4, '0')}${page}`
      : page;
    res.writeHead(status, `Status ${MARKER}`, { 'Content-Type': type }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let git: GitServer;
let service: Server;
let base: string;
let sha: string;
let cacheRoot: string;

beforeAll(async () => {
  git = await startGitServer();
  const repo = createRepo(git, 'app');
  sha = commit(repo, { 'a.yaml': 'a: 1\n' }, 'first');
  service = await startInternalService(git, 'app');
  base = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  cacheRoot = mkdtempSync(join(tmpdir(), 'lk-git-cache-'));
});

afterAll(async () => {
  service?.closeAllConnections();
  await new Promise((resolve) => service?.close(resolve));
  await git?.close();
  rmSync(cacheRoot, { recursive: true, force: true });
});

describe('an error from a git server', () => {
  it.each([
    ['not-found', 'main', 'could not fetch URL (HTTP 404)'],
    ['broken', 'main', 'could not fetch URL (HTTP 500)'],
    ['broken', 'a'.repeat(40), 'could not fetch URL (HTTP 500)'],
    ['denied', 'main', 'authentication failed for URL (HTTP 403)'],
    ['html', 'main', 'could not fetch URL: the server did not answer with the git smart-HTTP protocol'],
    ['garbage', 'main', 'could not fetch URL: the server sent no git data'],
    ['pkt-line', 'main', 'could not fetch URL: the server sent a response that is not valid git protocol'],
    ['pack-fails', 'main', 'could not fetch URL (HTTP 500)'],
    ['pack-fails', 'SHA', 'could not fetch URL (HTTP 500)'],
  ])('is reported by status and redacted URL only (/%s, %s)', async (path, reference, expected) => {
    const url = `${base.replace('http://', 'http://me:s3cret@')}/${path}/repo`;
    const error = await fetchCommit({
      url,
      reference: reference === 'SHA' ? sha : reference,
      cacheRoot,
    }).catch((e) => e);
    expect(hasCode(error, 'GitFetchError')).toBe(true);
    expect(error.message).toBe(expected.replace('URL', `${base}/${path}/repo`));
    expect(error.subject).toBe(`${base}/${path}/repo`);
    const everything = inspect(error, { depth: 10 });
    expect(everything).not.toContain(MARKER);
    expect(everything).not.toContain('s3cret');
  });

  it("never reaches the track's status", async () => {
    const client: KubeClient = await kubeClient();
    const e = engine(client);
    try {
      const ns = await freshNamespace(client, 'server-errors');
      const track = await createGitTrack(client, ns, {
        repository: `${base}/broken/repo`,
        reference: 'main',
      });
      const summary = await e.run(track);
      expect(summary.result).toBe('Failed');
      expect(summary.errors).toEqual([`could not fetch ${base}/broken/repo (HTTP 500)`]);
      const status = await trackStatus(client, track);
      expect(status.conditions.find((c) => c.type === 'Fetched')).toMatchObject({
        status: 'False',
        reason: 'FetchFailed',
        message: `could not fetch ${base}/broken/repo (HTTP 500)`,
      });
      expect(JSON.stringify(status)).not.toContain(MARKER);
      const events = await client.get<{ items: Array<{ message: string }> }>(
        `/api/v1/namespaces/${ns}/events`,
      );
      expect(events.items.length).toBeGreaterThan(0);
      expect(JSON.stringify(events.items)).not.toContain(MARKER);
    } finally {
      e.dispose();
      await client.close();
    }
  });
});
