import { ConfigError } from '../errors';

/** The deployment's allow-list of hosts remote kustomize content may come from (lib/kustomize/remoteAccess.ts). */
export const REMOTE_HOSTS_SETTING = 'LIGHTKEEPER_KUSTOMIZE_REMOTE_HOSTS';

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
