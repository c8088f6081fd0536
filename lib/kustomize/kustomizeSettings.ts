import { type Env, integer, milliseconds, readSetting } from '../settings/setting';

/** A track's `spec.kustomize`. */
export interface KustomizeSpec {
  /** Render a subPath holding a kustomization (default true); false reads its files as plain manifests. */
  enabled?: boolean;
  /**
   * Allow remote bases (git) and remote resources (http) (default false): a GitTrack then reaches only
   * the deployment's allow-listed hosts (lib/kustomize/remoteAccess.ts).
   */
  allowRemote?: boolean;
}

export interface RenderLimits {
  /** A render taking longer is killed and fails the commit. Default 60 s. */
  timeoutMs: number;
  /** A render printing more is killed and fails the commit. Default 64 MiB. */
  maxOutputBytes: number;
}

export const DEFAULT_RENDER_LIMITS: RenderLimits = { timeoutMs: 60_000, maxOutputBytes: 64 * 1024 * 1024 };

export const renderLimitSettings = {
  timeoutMs: milliseconds('LIGHTKEEPER_KUSTOMIZE_TIMEOUT_MS', DEFAULT_RENDER_LIMITS.timeoutMs),
  maxOutputBytes: integer('LIGHTKEEPER_KUSTOMIZE_MAX_OUTPUT_BYTES', DEFAULT_RENDER_LIMITS.maxOutputBytes, {
    min: 1,
    unit: 'bytes',
  }),
} as const;

/**
 * Limits from LIGHTKEEPER_KUSTOMIZE_TIMEOUT_MS / LIGHTKEEPER_KUSTOMIZE_MAX_OUTPUT_BYTES, else the
 * defaults. The reconcile function's and the CLI's loaders check them at start; a render calls
 * this again where no limits are passed to it.
 */
export function renderLimitsFromEnv(env: Env = process.env): RenderLimits {
  return {
    timeoutMs: readSetting(env, renderLimitSettings.timeoutMs),
    maxOutputBytes: readSetting(env, renderLimitSettings.maxOutputBytes),
  };
}
