import type { KubeConfig } from '@kubernetes/client-node';
import { type CliConfig, loadCliConfig } from '../config/cliConfig';
import type { KubeClient } from '../kube/kubeClient';

const namespaceOf = (kc: KubeConfig) => kc.getContextObject(kc.getCurrentContext())?.namespace || 'default';

/** The namespace of the kubeconfig's current context (`default` without one), for a command without `-n`. */
export async function contextNamespace(
  kubeconfig: string | undefined = loadCliConfig().kubeconfig,
): Promise<string> {
  try {
    const { loadKubeConfig } = await import('../kube/loadKubeConfig');
    return namespaceOf(loadKubeConfig(kubeconfig));
  } catch {
    return 'default';
  }
}

/**
 * Runs `body` with the user's own client (KUBECONFIG, as kubectl finds it, under the CLI's request
 * policy) and the namespace of its current context, which a command without `-n` uses, as kubectl
 * does; closed afterwards.
 */
export async function withUserClient<T>(
  body: (client: KubeClient, contextNamespace: string) => Promise<T>,
  config: Pick<CliConfig, 'kubeconfig' | 'requestPolicy'> = loadCliConfig(),
): Promise<T> {
  // Loaded here, not when the command is defined: `completion` defines every command.
  const [{ loadKubeConfig }, { KubeClient }] = await Promise.all([
    import('../kube/loadKubeConfig'),
    import('../kube/kubeClient'),
  ]);
  const kc = loadKubeConfig(config.kubeconfig);
  const client = await KubeClient.fromKubeConfig(kc, { policy: config.requestPolicy });
  try {
    return await body(client, namespaceOf(kc));
  } finally {
    await client.close();
  }
}
