import { ConfigError } from '../errors';
import { isNamespaceName } from '../manifests/objectName';
import { fallbackServiceAccount, isServiceAccountName } from '../manifests/serviceAccountName';
import type { KmsAccess } from './kmsAccess';
import { parseRemoteHosts, REMOTE_HOSTS_SETTING } from './remoteHosts';
import { checked, type Env, integer, oneOf, readSetting, type Setting } from './setting';
import type { SourceLimits } from './sourceLimits';

export type GitTrackMode = 'Enabled' | 'Disabled';
export type ClusterGitTrackMode = 'IncludeNamespaced' | 'ExcludeNamespaced' | 'Disabled';

/** Which tracks this deployment reconciles, read once from the environment. */
export interface DeploymentConfig {
  /** `LIGHTKEEPER_NAMESPACE`: only GitTracks in this namespace. */
  namespace?: string | undefined;
  /** `GITTRACK_MODE`, default Enabled. */
  gitTrackMode: GitTrackMode;
  /** `CLUSTERGITTRACK_MODE`, default IncludeNamespaced (Disabled when a namespace is set). */
  clusterGitTrackMode: ClusterGitTrackMode;
  /**
   * `LIGHTKEEPER_DEFAULT_SERVICE_ACCOUNT`, default `default`: the service account (in the track's
   * namespace) a GitTrack without `spec.serviceAccountName` acts as, like Flux's
   * `--default-service-account`. No GitTrack ever acts with the reconciler's own rights.
   */
  defaultServiceAccount?: string | undefined;
  /**
   * `LIGHTKEEPER_KUSTOMIZE_REMOTE_HOSTS`, default none: the hosts (`host` or `host:port`) remote
   * kustomize bases, resources, components and generator files may come from. A GitTrack with
   * `spec.kustomize.allowRemote` reaches these and nothing else; a ClusterGitTrack with it also
   * reaches public addresses of other hosts (lib/kustomize/remoteAccess.ts).
   */
  kustomizeRemoteHosts?: readonly string[] | undefined;
  /**
   * What a track's source may cost and where the render engine is: set by the loaders of the
   * functions and the CLI that fetch (lib/config); undefined: the defaults.
   */
  sourceLimits?: SourceLimits | undefined;
  /**
   * `LIGHTKEEPER_INCREMENTAL_MAX_FILES`, default 500: a push that changes at most this many manifest
   * files of a plain-files track applies only them (lib/reconcile/incrementalGate.ts); 0: every run
   * checks the whole track. Undefined: the default.
   */
  incrementalMaxFiles?: number | undefined;
  /** AWS KMS with the function's role, for SOPS files (set by the loaders that decrypt); undefined: none. */
  kms?: KmsAccess | undefined;
}

/** A push changing more manifest files than this checks the whole track. */
export const defaultIncrementalMaxFiles = 500;

const namespaceSetting = checked(
  'LIGHTKEEPER_NAMESPACE',
  undefined,
  'a namespace name (a DNS-1123 label)',
  isNamespaceName,
);
const gitTrackModeSetting = oneOf('GITTRACK_MODE', ['Enabled', 'Disabled'] as const, 'Enabled');
// Unset: Disabled when a namespace is set, else IncludeNamespaced (the loader decides).
const clusterGitTrackModeSetting: Setting<ClusterGitTrackMode | undefined> = {
  ...oneOf(
    'CLUSTERGITTRACK_MODE',
    ['IncludeNamespaced', 'ExcludeNamespaced', 'Disabled'] as const,
    'Disabled',
  ),
  fallback: undefined,
  shownDefault: 'IncludeNamespaced (Disabled when LIGHTKEEPER_NAMESPACE is set)',
};
const defaultServiceAccountSetting = checked(
  'LIGHTKEEPER_DEFAULT_SERVICE_ACCOUNT',
  fallbackServiceAccount,
  'a service account name (a DNS subdomain)',
  isServiceAccountName,
);
const incrementalMaxFilesSetting = integer('LIGHTKEEPER_INCREMENTAL_MAX_FILES', defaultIncrementalMaxFiles, {
  min: 0,
  unit: 'files',
});
const remoteHostsSetting: Setting<readonly string[]> = {
  name: REMOTE_HOSTS_SETTING,
  fallback: [],
  accepts: 'comma-separated hosts or host:port (no scheme, path or wildcard)',
  // parseRemoteHosts names the refused host itself.
  parse: (raw) => parseRemoteHosts(raw),
};

/** Every setting loadDeploymentConfig reads. */
export const deploymentSettings = [
  namespaceSetting,
  gitTrackModeSetting,
  clusterGitTrackModeSetting,
  defaultServiceAccountSetting,
  remoteHostsSetting,
  incrementalMaxFilesSetting,
] as const;

export function loadDeploymentConfig(env: Env): DeploymentConfig {
  const namespace = readSetting(env, namespaceSetting);
  const gitTrackMode = readSetting(env, gitTrackModeSetting);
  const clusterGitTrackMode =
    readSetting(env, clusterGitTrackModeSetting) ?? (namespace ? 'Disabled' : 'IncludeNamespaced');
  const defaultServiceAccount = readSetting(env, defaultServiceAccountSetting);
  if (namespace && clusterGitTrackMode !== 'Disabled') {
    throw new ConfigError(
      `LIGHTKEEPER_NAMESPACE=${namespace} restricts lightkeeper to one namespace, which requires CLUSTERGITTRACK_MODE=Disabled (got ${clusterGitTrackMode})`,
      { subject: 'CLUSTERGITTRACK_MODE' },
    );
  }
  if (namespace && gitTrackMode === 'Disabled') {
    throw new ConfigError(
      `LIGHTKEEPER_NAMESPACE=${namespace} only serves GitTracks, but GITTRACK_MODE=Disabled: nothing would be reconciled`,
      { subject: 'GITTRACK_MODE' },
    );
  }
  if (gitTrackMode === 'Disabled' && clusterGitTrackMode === 'Disabled') {
    throw new ConfigError(
      'GITTRACK_MODE and CLUSTERGITTRACK_MODE are both Disabled: nothing would be reconciled',
      {
        subject: 'GITTRACK_MODE',
      },
    );
  }
  const kustomizeRemoteHosts = [...readSetting(env, remoteHostsSetting)];
  const incrementalMaxFiles = readSetting(env, incrementalMaxFilesSetting);
  return {
    namespace,
    gitTrackMode,
    clusterGitTrackMode,
    defaultServiceAccount,
    kustomizeRemoteHosts,
    incrementalMaxFiles,
  };
}

/** Why this deployment may not reconcile a track, or undefined when it may. */
export function trackRefusal(
  config: DeploymentConfig,
  track: { kind: 'GitTrack' | 'ClusterGitTrack'; namespace?: string | undefined },
): string | undefined {
  if (track.kind === 'ClusterGitTrack') {
    return config.clusterGitTrackMode === 'Disabled'
      ? 'ClusterGitTracks are disabled (CLUSTERGITTRACK_MODE=Disabled)'
      : undefined;
  }
  if (config.gitTrackMode === 'Disabled') return 'GitTracks are disabled (GITTRACK_MODE=Disabled)';
  if (config.namespace && track.namespace !== config.namespace) {
    return `this deployment only manages GitTracks in namespace ${config.namespace} (LIGHTKEEPER_NAMESPACE)`;
  }
  return undefined;
}
