import { ConfigError } from '../errors';
import type { KustomizeSpec } from './kustomizeSettings';

/** The deployment's allow-list of hosts remote kustomize content may come from. */
export const REMOTE_HOSTS_SETTING = 'LIGHTKEEPER_KUSTOMIZE_REMOTE_HOSTS';

/**
 * What a render may reach. `none`: no network at all. `allowListed`: only the deployment's hosts (at
 * any address). `publicOrListed`: those, and any other host at a public address (never loopback,
 * link-local, private or reserved; no redirect to another host); the engine checks the address it
 * dials, after DNS.
 */
export type RemoteAccess =
  | { kind: 'none' }
  | { kind: 'allowListed'; hosts: readonly string[] }
  | { kind: 'publicOrListed'; hosts: readonly string[] };

/**
 * A GitTrack renders remote content only from the hosts the platform listed, whatever its spec says;
 * the platform's own ClusterGitTrack with `allowRemote` may also reach public hosts.
 */
export function remoteAccess(
  trackKind: 'GitTrack' | 'ClusterGitTrack',
  spec: KustomizeSpec | undefined,
  hosts: readonly string[] = [],
): RemoteAccess {
  if (spec?.allowRemote !== true) return { kind: 'none' };
  return trackKind === 'ClusterGitTrack' ? { kind: 'publicOrListed', hosts } : { kind: 'allowListed', hosts };
}

/** The engine's flags for an access (infra/kustomize/main.go). */
export function remoteAccessFlags(access: RemoteAccess): string[] {
  if (access.kind === 'none') return [];
  return [
    '-allow-remote',
    '-remote-hosts',
    access.hosts.join(','),
    ...(access.kind === 'publicOrListed' ? ['-remote-public'] : []),
  ];
}

const hostPattern =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/**
 * `LIGHTKEEPER_KUSTOMIZE_REMOTE_HOSTS`: comma-separated `host` (any port) or `host:port` (an IPv6
 * address in brackets), lower-cased. Anything else (a URL, a wildcard, a path) is a ConfigError.
 */
export function parseRemoteHosts(value: string | undefined): string[] {
  const hosts = (value ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  for (const host of hosts) {
    if (!hostPattern.test(host)) {
      throw new ConfigError(
        `${REMOTE_HOSTS_SETTING}: "${host}" is not a host or host:port (no scheme, path or wildcard)`,
        { subject: REMOTE_HOSTS_SETTING },
      );
    }
  }
  return hosts;
}
