// What a track's source may cost — one git transfer and one read of a commit (GitLimits), one render
// (RenderLimits) — and where the render engine is. The reconcile function's and the CLI's loaders
// (lib/config) read these once into DeploymentConfig.sourceLimits; the engine takes them from there
// and never reads the environment itself. A tenant's git server and repository are untrusted input:
// these bound them so that a 1 GiB Lambda (or the CLI) always ends.

import { type Env, integer, milliseconds, readSetting, type Setting, text } from './setting';

export interface GitLimits {
  /** Total time for every request of one fetch or ref listing together. Default 5 min. */
  timeoutMs: number;
  /**
   * The lowest acceptable rate, in bytes per second over each `lowSpeedTimeMs` window (git's
   * `http.lowSpeedLimit`); waiting for an answer counts as 0 bytes. 0 disables it. Default 1 KiB/s.
   */
  lowSpeedBytesPerSecond: number;
  /** The window the rate is measured over (git's `http.lowSpeedTime`). Default 30 s. */
  lowSpeedTimeMs: number;
  /**
   * Bytes of one git HTTP response: the pack, or the ref advertisement. Default 64 MiB: isomorphic-git
   * holds a pack several times over while it is received (measured peak RSS of a fetch and read:
   * 145 MiB for a 6 MiB pack, 326 MiB for 30 MiB, 374 MiB for 48 MiB).
   */
  maxResponseBytes: number;
  /** Objects in one pack. Default 200,000. */
  maxObjects: number;
  /** Size of one object once inflated (deltas applied). Default 64 MiB. */
  maxObjectBytes: number;
  /** Tree entries one read of a commit visits (a subtree named twice is visited twice). Default 200,000. */
  maxTreeEntries: number;
  /** Files one read of a commit reads. Default 50,000. */
  maxFiles: number;
  /**
   * Bytes of all files one read of a commit reads together. Default 32 MiB: parsing YAML peaks at
   * about 20 times its size (measured: 31 MiB of ConfigMaps, 682 MiB RSS; 58.5 MiB, 1,193 MiB).
   */
  maxReadBytes: number;
}

export type GitLimitName = keyof GitLimits;

export interface RenderLimits {
  /** A render taking longer is killed and fails the commit. Default 60 s. */
  timeoutMs: number;
  /** A render printing more is killed and fails the commit. Default 64 MiB. */
  maxOutputBytes: number;
  /**
   * A render holding more memory is stopped by the engine itself and fails the commit (a hard cap
   * beside Go's soft GOMEMLIMIT: infra/kustomize/memcap.go). Default (when absent too) 512 MiB.
   */
  maxMemoryBytes?: number;
}

export interface SourceLimits {
  git: GitLimits;
  render: RenderLimits;
  /** The kustomize-render binary (the Lambda layer's); undefined: the one infra/build-kustomize.sh builds. */
  kustomizeBin?: string | undefined;
}

const MiB = 1024 * 1024;

export const DEFAULT_GIT_LIMITS: GitLimits = {
  timeoutMs: 300_000,
  lowSpeedBytesPerSecond: 1024,
  lowSpeedTimeMs: 30_000,
  maxResponseBytes: 64 * MiB,
  maxObjects: 200_000,
  maxObjectBytes: 64 * MiB,
  maxTreeEntries: 200_000,
  maxFiles: 50_000,
  maxReadBytes: 32 * MiB,
};

export const DEFAULT_RENDER_LIMITS: Required<RenderLimits> = {
  timeoutMs: 60_000,
  maxOutputBytes: 64 * MiB,
  maxMemoryBytes: 512 * MiB,
};

/** What a source may cost when no loader said otherwise (tests, and library use). */
export const defaultSourceLimits: SourceLimits = { git: DEFAULT_GIT_LIMITS, render: DEFAULT_RENDER_LIMITS };

/** The environment variable behind each git limit. */
export const GIT_LIMIT_SETTINGS: Record<GitLimitName, string> = {
  timeoutMs: 'LIGHTKEEPER_GIT_TIMEOUT_MS',
  lowSpeedBytesPerSecond: 'LIGHTKEEPER_GIT_LOW_SPEED_BYTES_PER_SECOND',
  lowSpeedTimeMs: 'LIGHTKEEPER_GIT_LOW_SPEED_TIME_MS',
  maxResponseBytes: 'LIGHTKEEPER_GIT_MAX_RESPONSE_BYTES',
  maxObjects: 'LIGHTKEEPER_GIT_MAX_OBJECTS',
  maxObjectBytes: 'LIGHTKEEPER_GIT_MAX_OBJECT_BYTES',
  maxTreeEntries: 'LIGHTKEEPER_GIT_MAX_TREE_ENTRIES',
  maxFiles: 'LIGHTKEEPER_GIT_MAX_FILES',
  maxReadBytes: 'LIGHTKEEPER_GIT_MAX_READ_BYTES',
};

function unitOf(name: GitLimitName): string {
  if (name === 'timeoutMs' || name === 'lowSpeedTimeMs') return 'milliseconds';
  if (name === 'lowSpeedBytesPerSecond') return 'bytes per second';
  if (name === 'maxResponseBytes' || name === 'maxObjectBytes' || name === 'maxReadBytes') return 'bytes';
  return name === 'maxObjects' ? 'objects' : name === 'maxFiles' ? 'files' : 'entries';
}

/** Each git limit as a setting: whole numbers, at least 1 (0 only for the minimum rate, which it turns off). */
export const gitLimitSettings = Object.fromEntries(
  (Object.keys(DEFAULT_GIT_LIMITS) as GitLimitName[]).map((name) => [
    name,
    integer(GIT_LIMIT_SETTINGS[name], DEFAULT_GIT_LIMITS[name], {
      min: name === 'lowSpeedBytesPerSecond' ? 0 : 1,
      unit: unitOf(name),
    }),
  ]),
) as Record<GitLimitName, Setting<number>>;

export const renderLimitSettings = {
  timeoutMs: milliseconds('LIGHTKEEPER_KUSTOMIZE_TIMEOUT_MS', DEFAULT_RENDER_LIMITS.timeoutMs),
  maxOutputBytes: integer('LIGHTKEEPER_KUSTOMIZE_MAX_OUTPUT_BYTES', DEFAULT_RENDER_LIMITS.maxOutputBytes, {
    min: 1,
    unit: 'bytes',
  }),
  maxMemoryBytes: integer('LIGHTKEEPER_KUSTOMIZE_MAX_MEMORY_BYTES', DEFAULT_RENDER_LIMITS.maxMemoryBytes, {
    min: 1,
    unit: 'bytes',
  }),
} as const;

/** Where the Lambda layer puts the engine; serverless.yml sets it to `/opt/bin/kustomize-render`. */
export const kustomizeBinSetting = text(
  'LIGHTKEEPER_KUSTOMIZE_BIN',
  'the path of the kustomize-render binary',
);

/** Every setting loadSourceLimits reads. */
export const sourceLimitSettings: readonly Setting<unknown>[] = [
  ...Object.values(gitLimitSettings),
  ...Object.values(renderLimitSettings),
  kustomizeBinSetting,
];

/** The limits from their environment variables, else the defaults; a bad value is a ConfigError naming it. */
export function loadSourceLimits(env: Env): SourceLimits {
  const git = { ...DEFAULT_GIT_LIMITS };
  for (const name of Object.keys(git) as GitLimitName[]) git[name] = readSetting(env, gitLimitSettings[name]);
  return {
    git,
    render: {
      timeoutMs: readSetting(env, renderLimitSettings.timeoutMs),
      maxOutputBytes: readSetting(env, renderLimitSettings.maxOutputBytes),
      maxMemoryBytes: readSetting(env, renderLimitSettings.maxMemoryBytes),
    },
    kustomizeBin: readSetting(env, kustomizeBinSetting),
  };
}
