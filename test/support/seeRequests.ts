import { KubeClient, type KubeRequestOptions } from '../../lib/kube/kubeClient';

type Method = Parameters<KubeClient['exchange']>[0];

/**
 * Runs `fn` with every request any KubeClient of this process sends shown to `see` first (the
 * track's impersonating client included, which a client handed to the engine would miss).
 */
export async function seeRequests<T>(
  see: (method: Method, path: string, options: KubeRequestOptions | undefined) => void,
  fn: () => Promise<T>,
): Promise<T> {
  const original = KubeClient.prototype.exchange;
  KubeClient.prototype.exchange = function (this: KubeClient, method, path, options) {
    see(method, path, options);
    return original.call(this, method, path, options);
  } as KubeClient['exchange'];
  try {
    return await fn();
  } finally {
    KubeClient.prototype.exchange = original;
  }
}
