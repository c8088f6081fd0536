import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliveryHeaders, pingPayload, pushPayload } from '../../../lib/localstack/pushPayload';

// The middy shell of functions/webhook.ts, for the answers that need no cluster (the e2e tests
// cover the rest through serverless-offline).

const context = {
  functionName: 'lightkeeper-test-webhook',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:lightkeeper-test-webhook',
  memoryLimitInMB: '512',
  awsRequestId: 'request-1',
  getRemainingTimeInMillis: () => 10_000,
} as unknown as Context;

async function webhook(env: Record<string, string>) {
  vi.resetModules();
  for (const name of [
    'WEBHOOK_SECRET',
    'WEBHOOK_SECRET_SSM_PARAMETER',
    'WEBHOOK_SECRET_PREVIOUS',
    'KUBECONFIG',
    'KUBECONFIG_SSM_PARAMETER',
    'WEBHOOK_KUBECONFIG',
    'WEBHOOK_KUBECONFIG_SSM_PARAMETER',
  ])
    vi.stubEnv(name, '');
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.stubEnv('POWERTOOLS_DEV', 'true');
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'info').mockImplementation(() => {});
  const { handler } = await import('../../../functions/webhook');
  return async (body: string, headers: Record<string, string>) =>
    (await handler(
      { headers, body, isBase64Encoded: false } as unknown as APIGatewayProxyEventV2,
      context as Parameters<typeof handler>[1],
    )) as APIGatewayProxyStructuredResultV2;
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('functions/webhook', () => {
  it('answers 500 and says why when no secret is configured', async () => {
    const deliver = await webhook({});
    const body = JSON.stringify(pingPayload());
    const res = await deliver(body, await deliveryHeaders(body, 'anything', 'ping'));
    expect(res).toMatchObject({
      statusCode: 500,
      body: JSON.stringify({ error: 'webhook secret not configured' }),
    });
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('no webhook secret configured'));
  });

  it('maps refusals to 401 and 413, and a verified ping to 200', async () => {
    const deliver = await webhook({
      WEBHOOK_SECRET: 'current',
      WEBHOOK_SECRET_PREVIOUS: 'old',
      WEBHOOK_MAX_BODY_BYTES: '65536',
    });
    const body = JSON.stringify(pingPayload());
    expect((await deliver(body, { 'x-github-event': 'ping' })).statusCode).toBe(401);
    expect((await deliver(body, await deliveryHeaders(body, 'wrong', 'ping'))).statusCode).toBe(401);
    const big = 'x'.repeat(65_537);
    expect((await deliver(big, await deliveryHeaders(big, 'current', 'ping'))).statusCode).toBe(413);
    expect((await deliver(body, await deliveryHeaders(body, 'current', 'ping'))).statusCode).toBe(200);
    expect((await deliver(body, await deliveryHeaders(body, 'old', 'ping'))).statusCode).toBe(200);
  });

  it('never lists tracks with the reconcile function’s kubeconfig', async () => {
    const deliver = await webhook({ WEBHOOK_SECRET: 'current', KUBECONFIG: '/reconciler/kubeconfig' });
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('no webhook kubeconfig configured'));
    const body = JSON.stringify(pushPayload('branch-created'));
    const res = await deliver(body, await deliveryHeaders(body, 'current'));
    expect(res).toMatchObject({ statusCode: 500, body: JSON.stringify({ error: 'internal error' }) });
    expect(console.error).toHaveBeenCalledWith(
      expect.stringContaining(
        'no webhook kubeconfig: set WEBHOOK_KUBECONFIG (a path) or WEBHOOK_KUBECONFIG_SSM_PARAMETER',
      ),
    );
    const logged = vi.mocked(console.error).mock.calls.flat().join('\n');
    expect(logged).not.toContain('/reconciler/kubeconfig');
  });

  it('answers 503 within its 10 s when the API server refuses connections', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lk-webhook-'));
    try {
      // A loopback port nothing listens on: connection refused, as from a stopped API server.
      const kubeconfig = join(dir, 'kubeconfig');
      writeFileSync(
        kubeconfig,
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Config',
          clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
          users: [{ name: 'u', user: { token: 't' } }],
          contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
          'current-context': 'x',
        }),
      );
      const deliver = await webhook({ WEBHOOK_SECRET: 'current', WEBHOOK_KUBECONFIG: kubeconfig });
      const body = JSON.stringify(pushPayload('branch-created'));
      const started = Date.now();
      const res = await deliver(body, await deliveryHeaders(body, 'current'));
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(res).toMatchObject({ statusCode: 503 });
      expect(console.error).toHaveBeenCalledWith(
        expect.stringContaining('cannot reach the Kubernetes API server at https://127.0.0.1:1'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
