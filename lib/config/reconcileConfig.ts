import { defaultShardSettings, type ShardSettings } from '../reconcile/shardRecord';
import { defaultTimeMarginMs, type TimeBudgetSettings } from '../reconcile/timeBudget';
import { defaultLeaseTtlSeconds } from '../settings/defaults';
import type { SettingKey } from '../settings/functionSettings';
import {
  type Env,
  integer,
  milliseconds,
  optionalMilliseconds,
  readSetting,
  type Setting,
  text,
  url,
} from '../settings/setting';
import { loadSourceLimits, sourceLimitSettings } from '../settings/sourceLimits';
import { type FunctionConfig, functionSettings, loadFunctionConfig } from './functionConfig';
import { kmsEndpointSettings, loadKmsAccess } from './kmsSettings';
import { leaseNamespaceSetting } from './leaseSettings';

export interface ReconcileConfig extends FunctionConfig {
  /** Where track leases and the digest key live. */
  leaseNamespace: string;
  /** How long a lease holds without renewal. */
  leaseTtlSeconds: number;
  /**
   * Time kept back from the wait for the lease for the reconcile itself: a waiter that gives up
   * fails its invocation, and Lambda's retry of an asynchronous event tries again later.
   */
  reserveMs: number;
  /** The run's time budget: the margin kept back, and a forced budget (to force short runs). */
  timeBudget: TimeBudgetSettings;
  /** A track planning more objects than the threshold is applied in shards (lib/reconcile/shardPhase.ts). */
  shards: ShardSettings;
  /**
   * A run of a sharded apply (a shard, the completing run) is taken on by the invocation that
   * would start it while this much of its time is left (lib/lambda/inlineRun.ts); else invoked.
   */
  inlineMinMs: number;
}

const keys: readonly SettingKey[] = ['kubeconfig', 'githubToken'];
/** Commit statuses: read per invocation by lib/github/githubFromEnv from the sources. */
const statusSettings = [
  url('GITHUB_API_URL'),
  text('LIGHTKEEPER_STATUS_TARGET_URL', 'a URL commit statuses link to'),
] as const;

const settings = {
  leaseTtlSeconds: integer('LIGHTKEEPER_LEASE_TTL_SECONDS', defaultLeaseTtlSeconds, {
    min: 1,
    unit: 'seconds',
  }),
  reserveMs: milliseconds('LIGHTKEEPER_RECONCILE_RESERVE_MS', 120_000, 0),
  marginMs: milliseconds('LIGHTKEEPER_TIME_MARGIN_MS', defaultTimeMarginMs, 0),
  forcedMs: optionalMilliseconds('LIGHTKEEPER_TIME_BUDGET_MS'),
  shardThreshold: integer('LIGHTKEEPER_SHARD_THRESHOLD', defaultShardSettings.threshold, {
    min: 0,
    unit: 'objects',
  }),
  shardFanout: integer('LIGHTKEEPER_SHARD_FANOUT', defaultShardSettings.fanout, { min: 1, unit: 'shards' }),
  shardPendingMs: milliseconds('LIGHTKEEPER_SHARD_PENDING_MS', defaultShardSettings.pendingMs, 1),
  shardInlineMinMs: milliseconds('LIGHTKEEPER_SHARD_INLINE_MIN_MS', 600_000, 0),
} as const;

/** Every setting loadReconcileConfig reads. */
export const reconcileSettings: readonly Setting<unknown>[] = [
  ...functionSettings(keys),
  ...statusSettings,
  leaseNamespaceSetting,
  ...Object.values(settings),
  ...sourceLimitSettings,
  kmsEndpointSettings[0],
];

/** The reconcile function's settings, read once at cold start; a bad value is a ConfigError naming it. */
export function loadReconcileConfig(env: Env = process.env): ReconcileConfig {
  const base = loadFunctionConfig(env, keys, statusSettings);
  return {
    ...base,
    deployment: { ...base.deployment, sourceLimits: loadSourceLimits(env), kms: loadKmsAccess(env) },
    leaseNamespace: readSetting(env, leaseNamespaceSetting),
    leaseTtlSeconds: readSetting(env, settings.leaseTtlSeconds),
    reserveMs: readSetting(env, settings.reserveMs),
    timeBudget: {
      marginMs: readSetting(env, settings.marginMs),
      forcedMs: readSetting(env, settings.forcedMs),
    },
    shards: {
      threshold: readSetting(env, settings.shardThreshold),
      fanout: readSetting(env, settings.shardFanout),
      pendingMs: readSetting(env, settings.shardPendingMs),
    },
    inlineMinMs: readSetting(env, settings.shardInlineMinMs),
  };
}
