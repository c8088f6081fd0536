import { describe, expect, it } from 'vitest';
import { eksSettingFrom } from '../../../lib/eks/eksSetting';
import { ConfigError } from '../../../lib/errors';
import { ssmParameterError } from '../../../lib/lambda/ssmParameterError';
import { hasSource, ssmFetchData } from '../../../lib/settings/functionSettings';

// How a function chooses its cluster: a plain kubeconfig path (local runs), else the EKS cluster,
// else the kubeconfig parameter in SSM — which is then not even fetched.

const deployed = {
  KUBECONFIG_SSM_PARAMETER: '/lightkeeper/dev/kubeconfig',
  WEBHOOK_KUBECONFIG_SSM_PARAMETER: '/lightkeeper/dev/webhook-kubeconfig',
  WEBHOOK_SECRET_SSM_PARAMETER: '/lightkeeper/dev/webhook-secret',
};

describe('cluster source', () => {
  it('fetches the kubeconfigs from SSM unless an EKS cluster is named; secrets always', () => {
    const keys = ['kubeconfig', 'webhookKubeconfig', 'webhookSecret'] as const;
    expect(ssmFetchData(keys, deployed)).toEqual({
      kubeconfig: '/lightkeeper/dev/kubeconfig',
      webhookKubeconfig: '/lightkeeper/dev/webhook-kubeconfig',
      webhookSecret: '/lightkeeper/dev/webhook-secret',
    });
    const eks = { ...deployed, LIGHTKEEPER_EKS_CLUSTER: 'prod-eu', AWS_REGION: 'eu-west-1' };
    expect(ssmFetchData(keys, eks)).toEqual({ webhookSecret: '/lightkeeper/dev/webhook-secret' });
    expect(hasSource('webhookKubeconfig', { LIGHTKEEPER_EKS_CLUSTER: 'prod-eu' })).toBe(true);
    expect(hasSource('webhookKubeconfig', {})).toBe(false);
    // A plain path still wins (local runs), and then nothing is fetched for it either.
    expect(ssmFetchData(['kubeconfig'], { ...eks, KUBECONFIG: '/tmp/kubeconfig' })).toEqual({});
  });

  it('reads the EKS cluster and its region from the environment', () => {
    expect(eksSettingFrom({})).toBeUndefined();
    expect(eksSettingFrom({ LIGHTKEEPER_EKS_CLUSTER: 'prod-eu', AWS_REGION: 'eu-west-1' })).toEqual({
      cluster: 'prod-eu',
      region: 'eu-west-1',
    });
    expect(() => eksSettingFrom({ LIGHTKEEPER_EKS_CLUSTER: 'prod-eu' })).toThrow(ConfigError);
  });
});

describe('ssmParameterError', () => {
  const middyFailure = (...data: unknown[]) =>
    new Error('Failed to resolve internal values', { cause: { package: '@middy/util', data } });

  it('names the missing parameters', () => {
    const missing = new Error('InvalidParameter /lightkeeper/dev/webhook-secret', {
      cause: { package: '@middy/ssm' },
    });
    const error = ssmParameterError(middyFailure(missing));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.message).toBe('SSM parameter /lightkeeper/dev/webhook-secret does not exist');
    expect(error?.subject).toBe('/lightkeeper/dev/webhook-secret');
  });

  it('says when SSM refused, and leaves every other error alone', () => {
    const denied = Object.assign(new Error('not authorized to perform ssm:GetParameters'), {
      name: 'AccessDeniedException',
      $metadata: { httpStatusCode: 400 },
    });
    expect(ssmParameterError(middyFailure(denied))?.message).toBe(
      'SSM refused to answer: AccessDeniedException: not authorized to perform ssm:GetParameters',
    );
    expect(ssmParameterError(new Error('boom'))).toBeUndefined();
    expect(ssmParameterError(middyFailure(new Error('a secret from elsewhere')))).toBeUndefined();
    expect(ssmParameterError(undefined)).toBeUndefined();
  });
});
