import type { CliConfig } from '../config/cliConfig';
import { KubeClient, type KubeClientOptions } from '../kube/kubeClient';

/** The CLI's client of the cluster KUBECONFIG names, under the request policy its settings give. */
export const cliKubeClient = (
  config: Pick<CliConfig, 'kubeconfig' | 'requestPolicy'>,
  options: Omit<KubeClientOptions, 'policy'> = {},
): Promise<KubeClient> =>
  KubeClient.fromFile(config.kubeconfig, { ...options, policy: config.requestPolicy });
