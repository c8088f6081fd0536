import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { clearCache } from '@middy/util';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { deliveryHeaders, pushPayload } from '../../../lib/localstack/pushPayload';
import { eventually, kubeconfig } from '../../support/cluster';
import { type MotoServer, startMoto } from '../../support/motoServer';

// The production configuration path: the functions' secrets and kubeconfigs read from SSM (moto's)
// by @middy/ssm, exactly as deployed (serverless.yml sets only the *_SSM_PARAMETER variables).

let moto: MotoServer;
let ssm: SSMClient;
beforeAll(async () => {
  moto = await startMoto();
  ssm = new SSMClient({
    region: 'us-east-1',
    endpoint: moto.endpoint,
    credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' },
  });
});
afterAll(async () => {
  ssm?.destroy();
  await moto?.stop();
});
afterEach(() => {
  // @middy/ssm's cache (and its refresh timer) lives in the middy package, which a cold start here
  // does not reload: each Lambda has a process of its own, these tests share one.
  clearCache();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const context = {
  functionName: 'lightkeeper-test',
  awsRequestId: 'request-1',
  getRemainingTimeInMillis: () => 10_000,
} as unknown as Context;

const put = (name: string, value: string) =>
  ssm.send(new PutParameterCommand({ Name: name, Value: value, Type: 'SecureString', Overwrite: true }));

/** A fresh module instance (a cold start) with only the deployed variables and moto's endpoint. */
async function coldStart<T>(fn: 'webhook' | 'sweep', env: Record<string, string>): Promise<T> {
  vi.resetModules();
  clearCache();
  for (const name of [
    'WEBHOOK_SECRET',
    'WEBHOOK_SECRET_PREVIOUS',
    'KUBECONFIG',
    'WEBHOOK_KUBECONFIG',
    'SWEEP_KUBECONFIG',
    'LIGHTKEEPER_EKS_CLUSTER',
  ])
    vi.stubEnv(name, '');
  for (const [name, value] of Object.entries({ ...moto.env, POWERTOOLS_DEV: 'true', ...env }))
    vi.stubEnv(name, value);
  for (const level of ['log', 'info', 'warn', 'error'] as const)
    vi.spyOn(console, level).mockImplementation(() => {});
  const module = (await import(`../../../functions/${fn}`)) as { handler: T };
  return module.handler;
}

type WebhookHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

async function webhook(env: Record<string, string>) {
  const handler = await coldStart<WebhookHandler>('webhook', env);
  // A push for a repository no track follows: verified, then matched against the tracks it lists.
  const body = JSON.stringify(
    pushPayload('branch-created', { url: `https://git.example/${randomBytes(4).toString('hex')}/none` }),
  );
  return async (secret: string) =>
    handler(
      {
        headers: await deliveryHeaders(body, secret),
        body,
        isBase64Encoded: false,
      } as unknown as APIGatewayProxyEventV2,
      context,
    );
}

describe('settings from SSM', () => {
  it('reads the webhook secret and kubeconfig, and a rotated secret reaches the warm handler after the cache expiry', async () => {
    const stage = `/lightkeeper/${randomBytes(4).toString('hex')}`;
    await put(`${stage}/webhook-secret`, 'first');
    await put(`${stage}/webhook-kubeconfig`, readFileSync(kubeconfig(), 'utf8'));
    const deliver = await webhook({
      WEBHOOK_SECRET_SSM_PARAMETER: `${stage}/webhook-secret`,
      WEBHOOK_KUBECONFIG_SSM_PARAMETER: `${stage}/webhook-kubeconfig`,
      LIGHTKEEPER_SSM_CACHE_MS: '1500',
    });
    const first = await deliver('first');
    // 202: verified with the secret from SSM, tracks listed with the kubeconfig from SSM.
    expect(first.statusCode, first.body).toBe(202);
    expect(JSON.parse(first.body as string)).toEqual({ triggered: [], skipped: [] });
    expect((await deliver('second')).statusCode).toBe(401);

    await put(`${stage}/webhook-secret`, 'second');
    const rotatedAt = Date.now();
    // Within the cache expiry the warm handler still holds the old secret.
    expect((await deliver('first')).statusCode).toBe(202);
    await eventually(
      'the rotated secret reaches the warm handler',
      async () => (await deliver('second')).statusCode === 202,
      10_000,
    );
    expect(Date.now() - rotatedAt).toBeGreaterThanOrEqual(1000);
    expect((await deliver('first')).statusCode).toBe(401);
  });

  it('answers a missing parameter clearly: the webhook says it is not configured and logs the name', async () => {
    const stage = `/lightkeeper/${randomBytes(4).toString('hex')}`;
    await put(`${stage}/webhook-kubeconfig`, readFileSync(kubeconfig(), 'utf8'));
    const deliver = await webhook({
      WEBHOOK_SECRET_SSM_PARAMETER: `${stage}/webhook-secret`,
      WEBHOOK_KUBECONFIG_SSM_PARAMETER: `${stage}/webhook-kubeconfig`,
    });
    const res = await deliver('anything');
    expect(res.statusCode).toBe(500);
    expect(JSON.parse(res.body as string)).toEqual({ error: 'webhook configuration unavailable' });
    expect(res.body).not.toContain(stage);
    expect(console.error).toHaveBeenCalledWith(
      expect.stringContaining(`SSM parameter ${stage}/webhook-secret does not exist`),
    );
  });

  it('gives the sweep its own kubeconfig from SSM, and fails it naming a missing one', async () => {
    const stage = `/lightkeeper/${randomBytes(4).toString('hex')}`;
    await put(`${stage}/sweep-kubeconfig`, readFileSync(kubeconfig(), 'utf8'));
    type Sweep = (event: unknown, context: Context) => Promise<{ started: number; skipped: number }>;
    const onlyAnEmptyNamespace = {
      LIGHTKEEPER_NAMESPACE: `empty-${randomBytes(3).toString('hex')}`,
      CLUSTERGITTRACK_MODE: 'Disabled',
    };
    const sweep = await coldStart<Sweep>('sweep', {
      SWEEP_KUBECONFIG_SSM_PARAMETER: `${stage}/sweep-kubeconfig`,
      ...onlyAnEmptyNamespace,
    });
    expect(await sweep({}, context)).toMatchObject({ started: 0, skipped: 0 });

    const missing = await coldStart<Sweep>('sweep', {
      SWEEP_KUBECONFIG_SSM_PARAMETER: `${stage}/nothing`,
      ...onlyAnEmptyNamespace,
    });
    const error = await missing({}, context).catch((e) => e);
    expect(error).toMatchObject({
      code: 'ConfigError',
      message: `SSM parameter ${stage}/nothing does not exist`,
    });
  });
});
