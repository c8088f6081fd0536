import { shortDeadlinePolicy } from '../kube/requestPolicy';
import type { SettingKey } from '../settings/functionSettings';
import { type Env, integer, readSetting, type Setting } from '../settings/setting';
import { defaultMaxBodyBytes } from '../webhook/handleDelivery';
import {
  type FunctionConfig,
  functionSettings,
  loadFunctionConfig,
  reconcileFunctionSetting,
} from './functionConfig';

export interface WebhookConfig extends FunctionConfig {
  /** The function each matching track's reconcile is started on. */
  reconcileFunction: string;
  /** A delivery body larger than this is refused (413). */
  maxBodyBytes: number;
}

const keys: readonly SettingKey[] = ['webhookSecret', 'previousWebhookSecret', 'webhookKubeconfig'];
const maxBodyBytesSetting = integer('WEBHOOK_MAX_BODY_BYTES', defaultMaxBodyBytes, { min: 1, unit: 'bytes' });

/** Every setting loadWebhookConfig reads. */
export const webhookSettings: readonly Setting<unknown>[] = [
  ...functionSettings(keys),
  reconcileFunctionSetting,
  maxBodyBytesSetting,
];

/** The webhook function's settings, read once at cold start; a bad value is a ConfigError naming it. */
export function loadWebhookConfig(env: Env = process.env): WebhookConfig {
  const base = loadFunctionConfig(env, keys);
  return {
    ...base,
    // Within the function's 10 s: an unreachable API server answers 503 (GitHub can redeliver).
    requestPolicy: shortDeadlinePolicy(base.requestPolicy),
    reconcileFunction: readSetting(env, reconcileFunctionSetting),
    maxBodyBytes: readSetting(env, maxBodyBytesSetting),
  };
}
