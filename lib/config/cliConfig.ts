import { type RequestPolicy, requestPolicyFromEnv, requestPolicySettings } from '../kube/requestPolicy';
import { type DeploymentConfig, deploymentSettings, loadDeploymentConfig } from '../settings/deploymentModes';
import { type Env, readSetting, type Setting } from '../settings/setting';
import { loadSourceLimits, type SourceLimits, sourceLimitSettings } from '../settings/sourceLimits';
import { debugSetting } from './cliDebug';
import { kmsEndpointSettings, loadKmsAccess } from './kmsSettings';
import { leaseNamespaceSetting } from './leaseSettings';
import { plainSourceSetting } from './sourceSettings';

/** What the CLI's cluster commands read, once, when a command starts. */
export interface CliConfig {
  /** `KUBECONFIG`: the kubeconfig file(s); unset: ~/.kube/config, else in-cluster, as kubectl. */
  kubeconfig: string | undefined;
  /** Stack traces with errors. */
  debug: boolean;
  deployment: DeploymentConfig & { sourceLimits: SourceLimits };
  requestPolicy: RequestPolicy;
  /** Where the CLI takes a track's lease (the reconcile function's namespace). */
  leaseNamespace: string;
  /** The secret `lightkeeper push` signs with unless `--secret` is given. */
  webhookSecret: string | undefined;
}

const settings = {
  // The same variables as the functions', read the same way.
  kubeconfig: plainSourceSetting('kubeconfig'),
  debug: debugSetting,
  webhookSecret: plainSourceSetting('webhookSecret'),
} as const;

/** Every setting loadCliConfig reads. */
export const cliSettings: readonly Setting<unknown>[] = [
  ...Object.values(settings),
  ...deploymentSettings,
  ...Object.values(requestPolicySettings),
  leaseNamespaceSetting,
  ...sourceLimitSettings,
  ...kmsEndpointSettings,
];

/** The CLI's settings; a bad value is a ConfigError naming it. */
export function loadCliConfig(env: Env = process.env): CliConfig {
  const sourceLimits = loadSourceLimits(env);
  return {
    kubeconfig: readSetting(env, settings.kubeconfig),
    debug: readSetting(env, settings.debug),
    deployment: { ...loadDeploymentConfig(env), sourceLimits, kms: loadKmsAccess(env) },
    requestPolicy: requestPolicyFromEnv(env),
    leaseNamespace: readSetting(env, leaseNamespaceSetting),
    webhookSecret: readSetting(env, settings.webhookSecret),
  };
}
