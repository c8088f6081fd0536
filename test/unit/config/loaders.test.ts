import { describe, expect, it } from 'vitest';
import { loadCliConfig } from '../../../lib/config/cliConfig';
import { wantsDebug } from '../../../lib/config/cliDebug';
import { loadReconcileConfig } from '../../../lib/config/reconcileConfig';
import { loadSweepConfig } from '../../../lib/config/sweepConfig';
import { loadWebhookConfig } from '../../../lib/config/webhookConfig';
import { ConfigError } from '../../../lib/errors';
import { defaultRequestPolicy } from '../../../lib/kube/requestPolicy';
import { defaultConcurrency } from '../../../lib/settings/defaults';
import { flag, integer, readSetting, url } from '../../../lib/settings/setting';

/** The error a loader throws for `env`, or undefined. */
function refusal(load: (env: Record<string, string>) => unknown, env: Record<string, string>) {
  try {
    load(env);
    return undefined;
  } catch (e) {
    return e;
  }
}

describe('setting parsers', () => {
  const attempts = integer('N', 3, { min: 1, max: 10 });

  it('take whole numbers within their bounds, and the default when unset or empty', () => {
    expect(readSetting({}, attempts)).toBe(3);
    expect(readSetting({ N: '' }, attempts)).toBe(3);
    expect(readSetting({ N: '10' }, attempts)).toBe(10);
    for (const raw of ['0', '11', '1.5', '1e1', '0x5', '-1', 'five', ' '])
      expect(() => readSetting({ N: raw }, attempts), raw).toThrow(
        `N=${raw} is not accepted: expected a whole number from 1 to 10`,
      );
  });

  it('read flags and URLs strictly', () => {
    expect(readSetting({ F: '1' }, flag('F', false))).toBe(true);
    expect(readSetting({ F: 'false' }, flag('F', true))).toBe(false);
    expect(() => readSetting({ F: 'yes' }, flag('F', false))).toThrow(
      'F=yes is not accepted: expected true, 1',
    );
    expect(readSetting({ U: 'http://127.0.0.1:3002' }, url('U'))).toBe('http://127.0.0.1:3002');
    expect(() => readSetting({ U: '127.0.0.1:3002' }, url('U'))).toThrow(ConfigError);
  });
});

describe('the reconcile function', () => {
  it('has one default for everything', () => {
    expect(loadReconcileConfig({})).toMatchObject({
      leaseNamespace: 'lightkeeper-system',
      leaseTtlSeconds: 60,
      reserveMs: 120_000,
      timeBudget: { marginMs: 90_000, forcedMs: undefined },
      ssmCacheExpiryMs: 300_000,
      requestPolicy: defaultRequestPolicy,
      lambda: { endpoint: undefined, region: 'us-east-1' },
      deployment: { gitTrackMode: 'Enabled', clusterGitTrackMode: 'IncludeNamespaced' },
    });
  });

  it('reads what is set', () => {
    const config = loadReconcileConfig({
      LIGHTKEEPER_LEASE_TTL_SECONDS: '30',
      LIGHTKEEPER_TIME_BUDGET_MS: '5000',
      LIGHTKEEPER_TIME_MARGIN_MS: '0',
      LIGHTKEEPER_SSM_CACHE_MS: '1500',
      AWS_REGION: 'eu-west-1',
      IS_OFFLINE: 'true',
    });
    expect(config).toMatchObject({
      leaseTtlSeconds: 30,
      timeBudget: { marginMs: 0, forcedMs: 5_000 },
      ssmCacheExpiryMs: 1_500,
      lambda: { endpoint: 'http://127.0.0.1:3002', region: 'eu-west-1' },
    });
  });

  it.each([
    ['LIGHTKEEPER_LEASE_TTL_SECONDS', '0', 'a whole number of at least 1 (seconds)'],
    ['LIGHTKEEPER_LEASE_TTL_SECONDS', '60s', 'a whole number of at least 1 (seconds)'],
    ['LIGHTKEEPER_RECONCILE_RESERVE_MS', '2m', 'a whole number of at least 0 (milliseconds)'],
    ['LIGHTKEEPER_TIME_BUDGET_MS', 'soon', 'a whole number of at least 0 (milliseconds)'],
    ['LIGHTKEEPER_TIME_MARGIN_MS', '-1', 'a whole number of at least 0 (milliseconds)'],
    ['LIGHTKEEPER_SSM_CACHE_MS', '5m', 'a whole number of at least 1 (milliseconds)'],
    ['LIGHTKEEPER_GIT_MAX_FILES', 'lots', 'a whole number of at least 1 (files)'],
    ['LIGHTKEEPER_KUSTOMIZE_TIMEOUT_MS', '1m', 'a whole number of at least 1 (milliseconds)'],
    ['LIGHTKEEPER_LAMBDA_ENDPOINT', 'localhost:3002', 'an http or https URL'],
    ['GITHUB_API_URL', 'ghe.example', 'an http or https URL'],
    ['LIGHTKEEPER_NAMESPACE', 'Team', 'a namespace name (a DNS-1123 label)'],
    ['LIGHTKEEPER_LEASE_NAMESPACE', 'ops/leases', 'a namespace name (a DNS-1123 label) the reconciler owns'],
    ['LIGHTKEEPER_DEFAULT_SERVICE_ACCOUNT', 'ns:name', 'a service account name (a DNS subdomain)'],
  ])('refuses %s=%s at cold start, saying what it accepts', (name, raw, accepts) => {
    const error = refusal(loadReconcileConfig, { [name]: raw });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      message: `${name}=${raw} is not accepted: expected ${accepts}`,
      subject: name,
    });
  });

  it('refuses an EKS cluster without a region at cold start, not at the first invocation', () => {
    expect(() => loadReconcileConfig({ LIGHTKEEPER_EKS_CLUSTER: 'prod-eu' })).toThrow(
      'LIGHTKEEPER_EKS_CLUSTER=prod-eu needs a region: set AWS_REGION',
    );
  });

  it('keeps only its own sources: its kubeconfig and token, never the webhook’s secret', () => {
    const { sources } = loadReconcileConfig({
      KUBECONFIG: '/reconciler',
      GITHUB_TOKEN_SSM_PARAMETER: '/lightkeeper/dev/github-token',
      WEBHOOK_SECRET: 'secret',
      SWEEP_KUBECONFIG: '/sweep',
    });
    expect(sources).toMatchObject({
      KUBECONFIG: '/reconciler',
      GITHUB_TOKEN_SSM_PARAMETER: '/lightkeeper/dev/github-token',
    });
    expect(Object.keys(sources)).not.toContain('WEBHOOK_SECRET');
    expect(Object.keys(sources)).not.toContain('SWEEP_KUBECONFIG');
  });
});

describe('the webhook function', () => {
  it('answers within its 10 s: short API deadlines, whatever is set', () => {
    const config = loadWebhookConfig({ LIGHTKEEPER_REQUEST_TIMEOUT_MS: '60000' });
    expect(config.requestPolicy).toMatchObject({
      connectTimeoutMs: 1_500,
      responseTimeoutMs: 3_000,
      attempts: 2,
    });
    expect(config).toMatchObject({
      maxBodyBytes: 5 * 1024 * 1024,
      reconcileFunction: 'lightkeeper-dev-reconcile',
    });
  });

  it('refuses a body limit that is not a number of bytes', () => {
    expect(refusal(loadWebhookConfig, { WEBHOOK_MAX_BODY_BYTES: '5MB' })).toMatchObject({
      code: 'ConfigError',
      message: 'WEBHOOK_MAX_BODY_BYTES=5MB is not accepted: expected a whole number of at least 1 (bytes)',
    });
  });

  it('never holds the reconcile function’s kubeconfig', () => {
    const { sources } = loadWebhookConfig({ KUBECONFIG: '/reconciler', WEBHOOK_KUBECONFIG: '/webhook' });
    expect(sources.WEBHOOK_KUBECONFIG).toBe('/webhook');
    expect(Object.keys(sources)).not.toContain('KUBECONFIG');
  });

  it('refuses a bad deployment mode at cold start', () => {
    expect(refusal(loadWebhookConfig, { GITTRACK_MODE: 'on' })).toMatchObject({
      message: 'GITTRACK_MODE=on is not accepted: expected one of Enabled, Disabled',
    });
  });
});

describe('the sweep function', () => {
  it('starts 10 reconciles at once unless told otherwise, and refuses nonsense', () => {
    expect(loadSweepConfig({}).concurrency).toBe(10);
    expect(loadSweepConfig({ SWEEP_CONCURRENCY: '5' }).concurrency).toBe(5);
    expect(refusal(loadSweepConfig, { SWEEP_CONCURRENCY: 'ten' })).toMatchObject({
      message:
        'SWEEP_CONCURRENCY=ten is not accepted: expected a whole number from 1 to 1000 (invocations at once)',
    });
    expect(Object.keys(loadSweepConfig({ KUBECONFIG: '/reconciler' }).sources)).not.toContain('KUBECONFIG');
  });
});

describe('the CLI', () => {
  it('reads its cluster, lease namespace and policy once', () => {
    expect(
      loadCliConfig({
        KUBECONFIG: '/a:/b',
        LIGHTKEEPER_LEASE_NAMESPACE: 'ops',
        LIGHTKEEPER_REQUEST_ATTEMPTS: '2',
        LIGHTKEEPER_DEBUG: '1',
      }),
    ).toMatchObject({
      kubeconfig: '/a:/b',
      leaseNamespace: 'ops',
      requestPolicy: { attempts: 2 },
      debug: true,
    });
    expect(defaultConcurrency).toBe(16);
  });

  it('refuses a bad limit before it runs anything', () => {
    expect(refusal(loadCliConfig, { LIGHTKEEPER_GIT_TIMEOUT_MS: '5 min' })).toMatchObject({
      message:
        'LIGHTKEEPER_GIT_TIMEOUT_MS=5 min is not accepted: expected a whole number of at least 1 (milliseconds)',
    });
  });

  it('decides on stack traces without ever failing while another error is reported', () => {
    expect(wantsDebug(['--debug'], {})).toBe(true);
    expect(wantsDebug([], { LIGHTKEEPER_DEBUG: '1' })).toBe(true);
    expect(wantsDebug([], { LIGHTKEEPER_DEBUG: 'yes' })).toBe(false);
    expect(wantsDebug([], {})).toBe(false);
  });
});
