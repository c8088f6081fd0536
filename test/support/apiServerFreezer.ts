import type { KubeClient } from '../../lib/kube/kubeClient';
import { eventually, localControlPlane } from './cluster';

export interface ApiServerFreezer {
  /** SIGSTOP: the kernel still accepts connections, nothing answers them. */
  freeze(): void;
  /** SIGCONT (idempotent), for a synchronous hook; `thaw` also waits until it answers. */
  resume(): void;
  /** SIGCONT (idempotent), then waits until the API server answers again: other tests share it. */
  thaw(client: KubeClient): Promise<void>;
}

/** Freezes the shared local control plane's kube-apiserver; undefined against KUBECONFIG's cluster. */
export function apiServerFreezer(): ApiServerFreezer | undefined {
  const pid = localControlPlane()?.status().apiserver.pid;
  if (!pid) return undefined;
  return {
    freeze: () => process.kill(pid, 'SIGSTOP'),
    resume: () => process.kill(pid, 'SIGCONT'),
    thaw: async (client) => {
      process.kill(pid, 'SIGCONT');
      await eventually(
        'the API server answers again',
        () =>
          client.get('/version').then(
            () => true,
            () => false,
          ),
        60_000,
      );
    },
  };
}
