import { readFile } from 'node:fs/promises';
import { eksSettingFrom } from '../eks/eksSetting';
import { ConfigError } from '../errors';
import { clientNodeCredentials } from '../kube/clientNodeCredentials';
import { KubeClient } from '../kube/kubeClient';
import type { KubeCredentials } from '../kube/kubeConfigCredentials';
import type { RequestPolicy } from '../kube/requestPolicy';
import { staticKubeconfigCredentials, UnsupportedKubeconfigUser } from '../kube/staticKubeconfig';
import { type KubeconfigKey, readSetting, settingName } from '../settings/functionSettings';

/** Whose kubeconfig a setting is, as errors name it. */
const ownerOf: Record<KubeconfigKey, string> = {
  kubeconfig: '',
  webhookKubeconfig: 'webhook ',
  sweepKubeconfig: 'sweep ',
};

const cached = new Map<KubeconfigKey, { source: string; client: Promise<KubeClient> }>();

/**
 * One API-server client per container, reused by every invocation (its connection pool stays warm):
 * from the file a plain `KUBECONFIG` names, else the EKS cluster `LIGHTKEEPER_EKS_CLUSTER` names (as
 * the function's own role; its token is renewed before every request that needs it), else from
 * kubeconfig content fetched from SSM.
 */
export function kubeClientFor(
  context: object,
  env: Readonly<Record<string, string | undefined>>,
  policy?: RequestPolicy,
): Promise<KubeClient> {
  return kubeClientFrom('kubeconfig', context, env, policy);
}

/**
 * The same for one kubeconfig setting. Each function names its own and never falls back to
 * another's: the webhook reads only `WEBHOOK_KUBECONFIG` and the sweep only `SWEEP_KUBECONFIG`, even
 * when `KUBECONFIG` is set.
 */
export function kubeClientFrom(
  key: KubeconfigKey,
  context: object,
  env: Readonly<Record<string, string | undefined>>,
  policy?: RequestPolicy,
): Promise<KubeClient> {
  const name = settingName(key);
  const eks = env[name] ? undefined : eksSettingFrom(env);
  const source = eks ? `eks:${eks.region}/${eks.cluster}` : readSetting(key, context, env);
  if (!source) {
    throw new ConfigError(
      `no ${ownerOf[key]}kubeconfig: set ${name} (a path) or ${name}_SSM_PARAMETER (or LIGHTKEEPER_EKS_CLUSTER for an EKS cluster)`,
      {
        subject: name,
      },
    );
  }
  const entry = cached.get(key);
  if (entry?.source === source) return entry.client;
  // The EKS client and the SDK's credential chain are loaded only where a function talks to EKS.
  const client = eks
    ? import('../eks/eksKubeClient').then(({ eksKubeClient }) => eksKubeClient(eks, { env, policy }))
    : env[name]
      ? kubeconfigClient({ file: source }, policy)
      : kubeconfigClient({ text: source }, policy);
  cached.set(key, { source, client });
  client.catch(() => {
    if (cached.get(key)?.client === client) cached.delete(key);
  });
  void entry?.client.then((c) => c.close()).catch(() => {});
  return client;
}

/**
 * From a kubeconfig's static credentials (lib/kube/staticKubeconfig.ts): client-node, which the CLI
 * reads kubeconfigs with, is not in a function's bundle. A user's exec plugin is run by client-node
 * where node_modules has it (`npm start` against the user's cluster); elsewhere it is refused.
 */
async function kubeconfigClient(
  from: { file: string } | { text: string },
  policy: RequestPolicy | undefined,
): Promise<KubeClient> {
  const file = 'file' in from ? from.file : undefined;
  let text: string;
  try {
    text = 'text' in from ? from.text : await readFile(from.file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read the kubeconfig ${file}`, { subject: file, cause: e });
  }
  let credentials: KubeCredentials;
  try {
    credentials = staticKubeconfigCredentials(text, file);
  } catch (e) {
    if (!(e instanceof UnsupportedKubeconfigUser)) throw e;
    const viaClientNode = await clientNodeCredentials(text, file);
    if (!viaClientNode) throw e;
    credentials = viaClientNode;
  }
  return KubeClient.fromCredentials(credentials, { policy });
}
