import {
  DescribeClusterCommand,
  type DescribeClusterCommandOutput,
  type EKSClient,
} from '@aws-sdk/client-eks';
import { ConfigError } from '../errors';

export interface EksClusterAccess {
  name: string;
  /** The API server's https endpoint. */
  endpoint: string;
  /** The cluster CA's PEM, base64 (as `certificate-authority-data` in a kubeconfig). */
  caData: string;
}

/**
 * Endpoint and CA of an EKS cluster, from DescribeCluster (the function's role needs
 * `eks:DescribeCluster` on that cluster). The SDK takes its endpoint from `AWS_ENDPOINT_URL_EKS` or
 * `AWS_ENDPOINT_URL` when set.
 */
export async function describeEksCluster(eks: EKSClient, name: string): Promise<EksClusterAccess> {
  let cluster: DescribeClusterCommandOutput['cluster'];
  try {
    ({ cluster } = await eks.send(new DescribeClusterCommand({ name })));
  } catch (cause) {
    throw new ConfigError(`cannot describe the EKS cluster ${name}: ${(cause as Error).message}`, {
      subject: name,
      cause,
      hint: 'check LIGHTKEEPER_EKS_CLUSTER, AWS_REGION, and that the function role may eks:DescribeCluster on it',
    });
  }
  const endpoint = cluster?.endpoint;
  const caData = cluster?.certificateAuthority?.data;
  if (!endpoint || !caData)
    throw new ConfigError(
      `the EKS cluster ${name} has no endpoint or CA yet (status ${cluster?.status ?? 'unknown'})`,
      { subject: name },
    );
  return { name, endpoint, caData };
}
