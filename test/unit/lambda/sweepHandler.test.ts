import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The middy shell of functions/sweep.ts, for what needs no cluster: which kubeconfig it reads (the
// e2e tests run it through serverless-offline as its own read-only identity).

const context = {
  functionName: 'lightkeeper-test-sweep',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:lightkeeper-test-sweep',
  memoryLimitInMB: '512',
  awsRequestId: 'request-1',
  getRemainingTimeInMillis: () => 60_000,
} as unknown as Context;

async function sweep(env: Record<string, string>) {
  vi.resetModules();
  for (const name of [
    'KUBECONFIG',
    'KUBECONFIG_SSM_PARAMETER',
    'SWEEP_KUBECONFIG',
    'SWEEP_KUBECONFIG_SSM_PARAMETER',
    'LIGHTKEEPER_EKS_CLUSTER',
  ])
    vi.stubEnv(name, '');
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.stubEnv('POWERTOOLS_DEV', 'true');
  for (const level of ['log', 'info', 'warn', 'error'] as const)
    vi.spyOn(console, level).mockImplementation(() => {});
  const { handler } = await import('../../../functions/sweep');
  return () => handler({}, context as Parameters<typeof handler>[1]);
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('functions/sweep', () => {
  it('never lists tracks with the reconcile function’s kubeconfig', async () => {
    const run = await sweep({
      KUBECONFIG: '/reconciler/kubeconfig',
      KUBECONFIG_SSM_PARAMETER: '/lightkeeper/dev/kubeconfig',
    });
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('no sweep kubeconfig configured'));
    const error = await run().catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'ConfigError',
      message:
        'no sweep kubeconfig: set SWEEP_KUBECONFIG (a path) or SWEEP_KUBECONFIG_SSM_PARAMETER (or LIGHTKEEPER_EKS_CLUSTER for an EKS cluster)',
    });
  });
});
