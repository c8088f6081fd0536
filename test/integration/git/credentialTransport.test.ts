import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
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

// An address of this machine that is not loopback: requests to it are real, yet they stay here.
const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i?.family === 'IPv4' && !i.internal)?.address;

describe('credentials', () => {
  it.runIf(external)('are never sent over plain http to a host that is not loopback', async () => {
    const target = await recordingServer('0.0.0.0', () => [404, {}]);
    servers.push(target.server);
    const url = `http://${external}:${target.port}/private`;

    for (const withCredentials of [url, url.replace('http://', 'http://me:s3cret@')]) {
      const error = await fetchCommit({
        url: withCredentials,
        reference: 'main',
        auth: withCredentials === url ? auth : undefined,
        cacheRoot,
      }).catch((e) => e);
      expect(hasCode(error, 'GitFetchError')).toBe(true);
      expect(error.message).toBe(
        `refusing to send credentials over plain http to ${url}: only https, or http to a loopback address (127.0.0.0/8, ::1, localhost), carries them`,
      );
    }
    expect(target.seen).toEqual([]);

    // The same URL without credentials is fetched: the refusal is what kept the requests away.
    const anonymous = await fetchCommit({ url, reference: 'main', cacheRoot }).catch((e) => e);
    expect(anonymous.message).toBe(`could not fetch ${url} (HTTP 404)`);
    expect(target.seen.length).toBeGreaterThan(0);
  });

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
