import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { ConfigError } from '../errors';
import { KubeClient, type KubeClientOptions } from './kubeClient';

const serviceAccountToken = '/var/run/secrets/kubernetes.io/serviceaccount/token';
const hint =
  'set KUBECONFIG to a kubeconfig file (`npx lightkeeper cluster up` prints one for a local cluster)';

/**
 * The kubeconfig at `path` (a list separated by `:` as in KUBECONFIG), else KUBECONFIG's, else
 * ~/.kube/config, else the in-cluster service account, as kubectl finds it. Where there is
 * none, or it cannot be read, a ConfigError says so and what to do, instead of client-node's
 * fallback to http://localhost:8080.
 */
export function loadKubeConfig(path?: string, env: NodeJS.ProcessEnv = process.env): KubeConfig {
  const kc = new KubeConfig();
  const list = path || env.KUBECONFIG;
  const named = list && list === env.KUBECONFIG ? ' named by KUBECONFIG' : '';
  const files = list ? list.split(delimiter).filter(Boolean) : [join(homedir(), '.kube', 'config')];
  if (!list && !existsSync(files[0] as string)) {
    if (existsSync(serviceAccountToken)) {
      kc.loadFromCluster();
      return kc;
    }
    throw new ConfigError(`no kubeconfig: KUBECONFIG is not set and ${files[0]} does not exist`, {
      subject: 'KUBECONFIG',
      hint,
    });
  }
  for (const [i, file] of files.entries()) {
    if (!existsSync(file))
      throw new ConfigError(`the kubeconfig ${file}${named} does not exist`, { subject: file, hint });
    try {
      if (i === 0) kc.loadFromFile(file);
      else {
        const next = new KubeConfig();
        next.loadFromFile(file);
        kc.mergeConfig(next);
      }
    } catch (e) {
      throw new ConfigError(`cannot read the kubeconfig ${file}${named}`, { subject: file, cause: e, hint });
    }
  }
  return kc;
}

/**
 * A client from a kubeconfig file path, or `KUBECONFIG` / the default locations, read with client-node
 * (the CLI, the local stack, tests and benchmarks; a function reads its kubeconfig with
 * lib/kube/staticKubeconfig.ts and never loads client-node).
 */
export function kubeClientFromFile(path?: string, options?: KubeClientOptions): Promise<KubeClient> {
  return KubeClient.fromKubeConfig(loadKubeConfig(path), options);
}
