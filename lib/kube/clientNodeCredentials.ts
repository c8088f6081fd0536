import type * as ClientNode from '@kubernetes/client-node';
import { type KubeCredentials, kubeConfigCredentials } from './kubeConfigCredentials';

// A variable, so that esbuild leaves the import alone: client-node never enters a function's bundle.
const clientNodePackage = '@kubernetes/client-node';

/**
 * A kubeconfig whose user runs an exec plugin or an auth provider, read by client-node loaded from
 * node_modules at run time: `npm start` against a user's own cluster (EKS's `aws eks get-token`,
 * GKE's plugin) works as before, while a deployed function, whose package holds no node_modules,
 * answers undefined and the caller refuses the kubeconfig.
 */
export async function clientNodeCredentials(
  text: string,
  file?: string,
): Promise<KubeCredentials | undefined> {
  let clientNode: typeof ClientNode;
  try {
    clientNode = (await import(clientNodePackage)) as typeof ClientNode;
  } catch {
    return undefined;
  }
  const kc = new clientNode.KubeConfig();
  if (file) kc.loadFromFile(file);
  else kc.loadFromString(text);
  return kubeConfigCredentials(kc);
}
