import { EKSClient } from '@aws-sdk/client-eks';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { ConfigError } from '../errors';
import { KubeClient } from '../kube/kubeClient';
import type { RequestPolicy } from '../kube/requestPolicy';
import { describeEksCluster } from './describeEksCluster';
import type { EksSetting } from './eksSetting';
import { EksTokenSource } from './eksTokenSource';
import { stsEndpoint } from './stsEndpoint';

type Env = Record<string, string | undefined>;

/**
 * A client for an EKS cluster with the function's own role credentials (the SDK's provider chain):
 * endpoint and CA from DescribeCluster, and a bearer token made as aws-iam-authenticator makes it,
 * renewed before it expires. Which Kubernetes identity the role is, is the cluster's access entry.
 */
export async function eksKubeClient(
  setting: EksSetting,
  options: { env: Env; policy?: RequestPolicy | undefined; now?: () => Date },
): Promise<KubeClient> {
  const credentials = fromNodeProviderChain();
  const eks = new EKSClient({ region: setting.region, credentials });
  const access = await describeEksCluster(eks, setting.cluster).finally(() => eks.destroy());
  const source = new EksTokenSource(
    {
      cluster: setting.cluster,
      region: setting.region,
      credentials,
      sts: stsEndpoint(setting.region, options.env),
    },
    options.now,
  );
  const token = () =>
    source.token().catch((cause) => {
      throw new ConfigError(`cannot sign a token for the EKS cluster ${setting.cluster}: ${cause.message}`, {
        subject: setting.cluster,
        cause,
      });
    });
  // The first token now, so missing credentials fail at once rather than at the first request.
  await token();
  return KubeClient.withBearerSource(access.endpoint, access.caData, token, { policy: options.policy });
}
