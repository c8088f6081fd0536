import { gitLimitsFromEnv } from '../git/gitLimits';
import { type RequestPolicy, requestPolicyFromEnv, requestPolicySettings } from '../kube/requestPolicy';
import { renderLimitsFromEnv } from '../kustomize/kustomizeSettings';
import { type DeploymentConfig, deploymentSettings, loadDeploymentConfig } from './deploymentModes';
import { plainSourceSetting } from './functionConfig';
import { leaseNamespaceSetting } from './leaseSettings';
import { engineLimitSettings } from './reconcileConfig';
import { type Env, flag, readSetting, type Setting } from './setting';

/** What the CLI's cluster commands read, once, when a command starts. */
export interface CliConfig {
  /** `KUBECONFIG`: the kubeconfig file(s); unset: ~/.kube/config, else in-cluster, as kubectl. */
  kubeconfig: string | undefined;
  /** Stack traces with errors. */
  debug: boolean;
  deployment: DeploymentConfig;
  requestPolicy: RequestPolicy;
  /** Where the CLI takes a track's lease (the reconcile function's namespace). */
  leaseNamespace: string;
  /** The secret `lightkeeper push` signs with unless `--secret` is given. */
  webhookSecret: string | undefined;
}

const settings = {
  // The same variables as the functions', read the same way.
  kubeconfig: plainSourceSetting('kubeconfig'),
  debug: flag('LIGHTKEEPER_DEBUG', false),
  webhookSecret: plainSourceSetting('webhookSecret'),
} as const;

/** Every setting loadCliConfig reads. */
export const cliSettings: readonly Setting<unknown>[] = [
  ...Object.values(settings),
  ...deploymentSettings,
  ...Object.values(requestPolicySettings),
  leaseNamespaceSetting,
  ...engineLimitSettings,
];

/** The CLI's settings; a bad value is a ConfigError naming it (the engine's limits are checked too). */
export function loadCliConfig(env: Env = process.env): CliConfig {
  gitLimitsFromEnv(env);
  renderLimitsFromEnv(env);
  return {
    kubeconfig: readSetting(env, settings.kubeconfig),
    debug: readSetting(env, settings.debug),
    deployment: loadDeploymentConfig(env),
    requestPolicy: requestPolicyFromEnv(env),
    leaseNamespace: readSetting(env, leaseNamespaceSetting),
    webhookSecret: readSetting(env, settings.webhookSecret),
  };
}

/**
 * Whether to print stack traces: `--debug`, or LIGHTKEEPER_DEBUG. Asked while another error is
 * reported, so a value it does not accept means no, never a second error.
 */
export function wantsDebug(argv: readonly string[], env: Env = process.env): boolean {
  const raw = env[settings.debug.name];
  return argv.includes('--debug') || (raw !== undefined && settings.debug.parse(raw) === true);
}
