import { defaultSweepConcurrency } from '../settings/defaults';
import type { SettingKey } from '../settings/functionSettings';
import { type Env, integer, readSetting, type Setting } from '../settings/setting';
import {
  type FunctionConfig,
  functionSettings,
  loadFunctionConfig,
  reconcileFunctionSetting,
} from './functionConfig';

export interface SweepConfig extends FunctionConfig {
  /** The function each track's reconcile is started on. */
  reconcileFunction: string;
  /** Reconciles started at once. */
  concurrency: number;
}

const keys: readonly SettingKey[] = ['sweepKubeconfig'];
const concurrencySetting = integer('SWEEP_CONCURRENCY', defaultSweepConcurrency, {
  min: 1,
  max: 1000,
  unit: 'invocations at once',
});

/** Every setting loadSweepConfig reads. */
export const sweepSettings: readonly Setting<unknown>[] = [
  ...functionSettings(keys),
  reconcileFunctionSetting,
  concurrencySetting,
];

/** The sweep function's settings, read once at cold start; a bad value is a ConfigError naming it. */
export function loadSweepConfig(env: Env = process.env): SweepConfig {
  return {
    ...loadFunctionConfig(env, keys),
    reconcileFunction: readSetting(env, reconcileFunctionSetting),
    concurrency: readSetting(env, concurrencySetting),
  };
}
