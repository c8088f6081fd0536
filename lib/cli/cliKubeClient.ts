import type { CliConfig } from '../config/cliConfig';
import type { KubeClient, KubeClientOptions } from '../kube/kubeClient';

/**
 * The CLI's client of the cluster KUBECONFIG names, under the request policy its settings give.
 * The client (and its HTTP stack) is loaded when a command first asks for one, not when the
 * command is defined: `completion` defines every command.
 */
export async function cliKubeClient(
  config: Pick<CliConfig, 'kubeconfig' | 'requestPolicy'>,
  options: Omit<KubeClientOptions, 'policy'> = {},
): Promise<KubeClient> {
  const [{ loadKubeConfig }, { KubeClient }] = await Promise.all([
    import('../kube/loadKubeConfig'),
    import('../kube/kubeClient'),
  ]);
  return KubeClient.fromKubeConfig(loadKubeConfig(config.kubeconfig), {
    ...options,
    policy: config.requestPolicy,
  });
}
