import { KubeConfig } from '@kubernetes/client-node';
import { ConfigError } from '../errors';
import { KubeClient } from '../kube/kubeClient';
import type { RequestPolicy } from '../kube/requestPolicy';
import { readSetting } from './functionSettings';

let cached: { source: string; client: Promise<KubeClient> } | undefined;

/**
 * One API-server client per container, reused by every invocation (its connection pool stays warm):
 * from kubeconfig content fetched from SSM, or from the file a plain `KUBECONFIG` names.
 */
export function kubeClientFor(
  context: object,
  env = process.env,
  policy?: RequestPolicy,
): Promise<KubeClient> {
  const source = readSetting('kubeconfig', context, env);
  if (!source) {
    throw new ConfigError('no kubeconfig: set KUBECONFIG (a path) or KUBECONFIG_SSM_PARAMETER', {
      subject: 'KUBECONFIG',
    });
  }
  if (cached?.source === source) return cached.client;
  const previous = cached;
  const client = env.KUBECONFIG ? KubeClient.fromFile(source, { policy }) : fromContent(source, policy);
  cached = { source, client };
  client.catch(() => {
    if (cached?.client === client) cached = undefined;
  });
  void previous?.client.then((c) => c.close()).catch(() => {});
  return client;
}

function fromContent(content: string, policy: RequestPolicy | undefined): Promise<KubeClient> {
  const kc = new KubeConfig();
  kc.loadFromString(content);
  return KubeClient.fromKubeConfig(kc, { policy });
}
