import { ConfigError } from '../errors';
import { fallbackServiceAccount, isServiceAccountName } from '../identity/serviceAccountUser';
import { parseRemoteHosts } from '../kustomize/remoteAccess';

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
}

function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined || value === '') return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(`${name}=${value} is not one of ${allowed.join(', ')}`, { subject: name });
}

export function loadDeploymentConfig(
  env: Record<string, string | undefined> = process.env,
): DeploymentConfig {
  const namespace = env.LIGHTKEEPER_NAMESPACE || undefined;
  const gitTrackMode = oneOf('GITTRACK_MODE', env.GITTRACK_MODE, ['Enabled', 'Disabled'] as const, 'Enabled');
  const clusterGitTrackMode = oneOf(
    'CLUSTERGITTRACK_MODE',
    env.CLUSTERGITTRACK_MODE,
    ['IncludeNamespaced', 'ExcludeNamespaced', 'Disabled'] as const,
    namespace ? 'Disabled' : 'IncludeNamespaced',
  );
  const defaultServiceAccount = env.LIGHTKEEPER_DEFAULT_SERVICE_ACCOUNT || fallbackServiceAccount;
  if (!isServiceAccountName(defaultServiceAccount)) {
    throw new ConfigError(
      `LIGHTKEEPER_DEFAULT_SERVICE_ACCOUNT=${defaultServiceAccount} is not a valid service account name`,
      { subject: 'LIGHTKEEPER_DEFAULT_SERVICE_ACCOUNT' },
    );
  }
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
  const kustomizeRemoteHosts = parseRemoteHosts(env.LIGHTKEEPER_KUSTOMIZE_REMOTE_HOSTS);
  return { namespace, gitTrackMode, clusterGitTrackMode, defaultServiceAccount, kustomizeRemoteHosts };
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
