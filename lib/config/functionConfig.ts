// What every function reads at cold start: the deployment's modes, the API server's deadlines, the
// SSM cache, its Lambda client and where its kubeconfig, secrets and token come from.
import { eksSettingFrom } from '../eks/eksSetting';
import { type RequestPolicy, requestPolicyFromEnv, requestPolicySettings } from '../kube/requestPolicy';
import type { LambdaClientOptions } from '../lambda/lambdaClient';
import { type DeploymentConfig, deploymentSettings, loadDeploymentConfig } from '../settings/deploymentModes';
import type { SettingKey } from '../settings/functionSettings';
import { type Env, milliseconds, readSetting, type Setting, text, textOr, url } from '../settings/setting';
import { sourceSettings } from './sourceSettings';

export interface FunctionConfig {
  deployment: DeploymentConfig;
  /** Deadlines and retries of the function's API-server client. */
  requestPolicy: RequestPolicy;
  /** How long @middy/ssm keeps what it fetched, so a rotated secret reaches warm containers. */
  ssmCacheExpiryMs: number;
  /** The function's Lambda client (to start reconciles). */
  lambda: LambdaClientOptions & { region: string };
  /**
   * The variables naming the function's kubeconfig, secrets, token and EKS cluster, as read at
   * cold start: lib/settings/functionSettings takes them as its `env` (SSM values come per invocation).
   */
  sources: Env;
}

/** An EKS cluster instead of a kubeconfig, and where its token is presigned. */
export const eksSettings = [
  text('LIGHTKEEPER_EKS_CLUSTER', 'an EKS cluster name'),
  text('AWS_REGION', 'an AWS region (set by Lambda)'),
  text('AWS_DEFAULT_REGION', 'an AWS region'),
  url('AWS_ENDPOINT_URL_STS'),
  url('AWS_ENDPOINT_URL'),
] as const;

export const lambdaSettings = {
  endpoint: url('LIGHTKEEPER_LAMBDA_ENDPOINT'),
  offline: text('IS_OFFLINE', 'any value: running under serverless-offline (set by it)'),
} as const;

export const ssmCacheSetting = milliseconds('LIGHTKEEPER_SSM_CACHE_MS', 300_000);

/** serverless-offline's default Lambda port: where a function under it starts reconciles. */
const offlineLambdaEndpoint = 'http://127.0.0.1:3002';

/** The name of the reconcile function the webhook and the sweep start. */
export const reconcileFunctionSetting = textOr(
  'RECONCILE_FUNCTION_NAME',
  'lightkeeper-dev-reconcile',
  'a Lambda function name (serverless.yml sets it)',
);

/** Reads every setting in `settings` into one object of their raw values (after checking each). */
export function snapshot(env: Env, settings: readonly Setting<string | undefined>[]): Env {
  return Object.fromEntries(settings.map((s) => [s.name, readSetting(env, s)]));
}

/** The part every function shares; `keys` are the kubeconfig, secret and token settings it uses. */
export function loadFunctionConfig(
  env: Env,
  keys: readonly SettingKey[],
  more: readonly Setting<string | undefined>[] = [],
): FunctionConfig {
  const sources = snapshot(env, [...keys.flatMap(sourceSettings), ...eksSettings, ...more]);
  eksSettingFrom(sources); // a cluster without a region fails here, not at the first invocation
  const region = sources.AWS_REGION || sources.AWS_DEFAULT_REGION || 'us-east-1';
  const endpoint = readSetting(env, lambdaSettings.endpoint);
  const offline = readSetting(env, lambdaSettings.offline);
  return {
    deployment: loadDeploymentConfig(env),
    requestPolicy: requestPolicyFromEnv(env),
    ssmCacheExpiryMs: readSetting(env, ssmCacheSetting),
    lambda: { endpoint: endpoint ?? (offline ? offlineLambdaEndpoint : undefined), region },
    sources,
  };
}

/** Every setting loadFunctionConfig reads, for the settings table. */
export const functionSettings = (keys: readonly SettingKey[]): readonly Setting<unknown>[] => [
  ...deploymentSettings,
  ...Object.values(requestPolicySettings),
  ssmCacheSetting,
  ...Object.values(lambdaSettings),
  ...keys.flatMap(sourceSettings),
  ...eksSettings,
];
