import type { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../kube/kubeClient';
import { loadKubeConfig } from '../kube/loadKubeConfig';

const namespaceOf = (kc: KubeConfig) => kc.getContextObject(kc.getCurrentContext())?.namespace || 'default';

/** The namespace of the kubeconfig's current context (`default` without one), for a command without `-n`. */
export function contextNamespace(): string {
  try {
    return namespaceOf(loadKubeConfig(process.env.KUBECONFIG || undefined));
  } catch {
    return 'default';
  }
}

/**
 * Runs `body` with the user's own client (KUBECONFIG, as kubectl finds it) and the namespace of
 * its current context, which a command without `-n` uses, as kubectl does; closed afterwards.
 */
export async function withUserClient<T>(
  body: (client: KubeClient, contextNamespace: string) => Promise<T>,
): Promise<T> {
  const kc = loadKubeConfig(process.env.KUBECONFIG || undefined);
  const client = await KubeClient.fromKubeConfig(kc);
  try {
    return await body(client, namespaceOf(kc));
  } finally {
    await client.close();
  }
}
