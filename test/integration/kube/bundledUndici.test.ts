import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as undici from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The functions' bundles send every API request through infra/bundle/undici-core.cjs (serverless.yml
// aliases undici there). Its `request` must answer as undici's own does: the oracle is undici's,
// on the same loopback server and the same Agent.

const core = createRequire(import.meta.url)(
  join(import.meta.dirname, '..', '..', '..', 'infra', 'bundle', 'undici-core.cjs'),
) as Pick<typeof undici, 'Agent' | 'request'>;

// Echoes what it received.
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    res.statusCode = req.url?.includes('missing') ? 404 : 200;
    res.end(
      JSON.stringify({
        method: req.method,
        url: req.url,
        accept: req.headers.accept,
        body: Buffer.concat(chunks).toString(),
      }),
    );
  });
});
let origin = '';
const agent = new core.Agent({ connections: 2 });

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await agent.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function both(url: string | URL, opts: Parameters<typeof undici.request>[1]) {
  const answer = async (send: typeof undici.request) => {
    const res = await send(url, { ...opts, dispatcher: agent });
    return { status: res.statusCode, type: res.headers['content-type'], body: await res.body.json() };
  };
  return { ours: await answer(core.request as typeof undici.request), theirs: await answer(undici.request) };
}

describe("the bundles' undici", () => {
  it('sends a GET with a query as undici does', async () => {
    const url = new URL(`${origin}/api/v1/namespaces?labelSelector=a%3Db&limit=2`);
    const { ours, theirs } = await both(url, { method: 'GET', headers: { accept: 'application/json' } });
    expect(ours).toEqual(theirs);
    expect(ours.body).toMatchObject({ method: 'GET', url: '/api/v1/namespaces?labelSelector=a%3Db&limit=2' });
  });

  it('sends a PATCH with a body, and answers a 404 as a response, as undici does', async () => {
    const { ours, theirs } = await both(`${origin}/missing/thing`, {
      method: 'PATCH',
      body: '{"spec":{}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(ours).toEqual(theirs);
    expect(ours).toMatchObject({ status: 404, body: { method: 'PATCH', body: '{"spec":{}}' } });
  });

  it('sends a body without a method as a PUT, as undici does', async () => {
    const { ours, theirs } = await both(`${origin}/apis/x?y=1`, { body: 'z' });
    expect(ours).toEqual(theirs);
    expect(ours.body).toMatchObject({ method: 'PUT', url: '/apis/x?y=1', body: 'z' });
  });

  it('refuses what undici refuses, with its error', () => {
    const thrown = (send: () => unknown) => {
      try {
        send();
      } catch (e) {
        return { name: (e as Error).name, message: (e as Error).message };
      }
      return undefined;
    };
    const ours = thrown(() => core.request('not a url', {}));
    expect(ours).toBeDefined();
    expect(ours).toEqual(thrown(() => undici.request('not a url', {})));
  });
});
