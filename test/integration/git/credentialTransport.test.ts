import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchCommit } from '../../../lib/git';

const auth = { type: 'token', token: 'tok-5ecret-value' } as const;

/** An HTTP server that records what it receives and answers with `answer`'s status and headers. */
async function recordingServer(
  host: string,
  answer: (path: string) => [number, Record<string, string>],
): Promise<{ server: Server; port: number; seen: Array<{ path: string; headers: IncomingHttpHeaders }> }> {
  const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    const [status, headers] = answer(req.url ?? '');
    res.writeHead(status, headers).end();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

const servers: Server[] = [];
let cacheRoot: string;
beforeAll(() => {
  cacheRoot = mkdtempSync(join(tmpdir(), 'lk-git-cache-'));
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(cacheRoot, { recursive: true, force: true });
});

describe('credentials', () => {
  it('do not follow a redirect to another origin', async () => {
    const elsewhere = await recordingServer('127.0.0.1', () => [404, {}]);
    servers.push(elsewhere.server);
    const redirecting = await recordingServer('127.0.0.1', (path) => [
      302,
      { Location: `http://127.0.0.1:${elsewhere.port}${path}` },
    ]);
    servers.push(redirecting.server);
    const url = `http://127.0.0.1:${redirecting.port}/private`;

    for (const [from, withAuth] of [
      [url, auth],
      [url.replace('http://', 'http://me:s3cret@'), undefined],
    ] as const) {
      const error = await fetchCommit({ url: from, reference: 'main', auth: withAuth, cacheRoot }).catch(
        (e) => e,
      );
      expect(error.message).toBe(`could not fetch ${url} (HTTP 404)`);
    }
    expect(redirecting.seen.map((r) => r.headers.authorization)).toEqual([
      `Basic ${Buffer.from(`x-access-token:${auth.token}`).toString('base64')}`,
      `Basic ${Buffer.from('me:s3cret').toString('base64')}`,
    ]);
    expect(elsewhere.seen).toHaveLength(2);
    expect(elsewhere.seen.map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
  });
});
