import { ConfigError } from '../errors';

/** Settings a function may read from SSM: context key → environment variable. */
const settingNames = {
  webhookSecret: 'WEBHOOK_SECRET',
  previousWebhookSecret: 'WEBHOOK_SECRET_PREVIOUS',
  /** The reconcile function's kubeconfig: content from SSM, or a path in the plain variable. */
  kubeconfig: 'KUBECONFIG',
  /** The webhook's own kubeconfig (an identity that may only read tracks), in the same two forms. */
  webhookKubeconfig: 'WEBHOOK_KUBECONFIG',
  /** The sweep's own kubeconfig (an identity that may only read tracks), in the same two forms. */
  sweepKubeconfig: 'SWEEP_KUBECONFIG',
  /** The reconcile function's token for commit statuses; optional (none: no statuses). */
  githubToken: 'GITHUB_TOKEN',
} as const;

export type KubeconfigKey = 'kubeconfig' | 'webhookKubeconfig' | 'sweepKubeconfig';
const isKubeconfigKey = (key: SettingKey): key is KubeconfigKey =>
  key === 'kubeconfig' || key === 'webhookKubeconfig' || key === 'sweepKubeconfig';
/** An EKS cluster replaces a kubeconfig from SSM (a plain kubeconfig path still wins: local runs). */
const eksInstead = (key: SettingKey, env: Env) =>
  isKubeconfigKey(key) && !env[settingNames[key]] && Boolean(env.LIGHTKEEPER_EKS_CLUSTER);

export type SettingKey = keyof typeof settingNames;
/** The function's sources as its loader read them (lib/config/functionConfig.ts `sources`). */
type Env = Readonly<Record<string, string | undefined>>;

/**
 * What @middy/ssm must fetch: each setting whose `<NAME>_SSM_PARAMETER` is set, unless the plain
 * `<NAME>` variable is set too (local runs), which wins.
 */
export function ssmFetchData(keys: readonly SettingKey[], env: Env): Record<string, string> {
  const fetch: Record<string, string> = {};
  for (const key of keys) {
    const name = settingNames[key];
    const parameter = env[`${name}_SSM_PARAMETER`];
    if (!env[name] && parameter && !eksInstead(key, env)) fetch[key] = parameter;
  }
  return fetch;
}

/** Whether a setting has any source at all (checked once at cold start). */
export const hasSource = (key: SettingKey, env: Env) =>
  Boolean(env[settingNames[key]] || env[`${settingNames[key]}_SSM_PARAMETER`] || eksInstead(key, env));

/** The environment variable behind a setting, e.g. `WEBHOOK_KUBECONFIG`. */
export const settingName = (key: SettingKey) => settingNames[key];

/** A setting's value: the plain variable, else what @middy/ssm put on the context. */
export function readSetting(key: SettingKey, context: object, env: Env): string | undefined {
  const plain = env[settingNames[key]];
  if (plain) return plain;
  const fetched = (context as Record<string, unknown>)[key];
  if (fetched === undefined || fetched === null || fetched === '') return undefined;
  if (typeof fetched === 'string') return fetched;
  // @middy/ssm parses values that look like JSON; a JSON kubeconfig is still a kubeconfig.
  if (isKubeconfigKey(key)) return JSON.stringify(fetched);
  throw new ConfigError(`SSM parameter ${env[`${settingNames[key]}_SSM_PARAMETER`]} must hold plain text`, {
    subject: settingNames[key],
  });
}

/** The webhook secrets in order of preference: current, then the one being rotated out. */
export function webhookSecrets(context: object, env: Env): string[] {
  return (['webhookSecret', 'previousWebhookSecret'] as const)
    .map((key) => readSetting(key, context, env))
    .filter((secret): secret is string => secret !== undefined);
}
