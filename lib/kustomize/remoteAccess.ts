import type { KustomizeSpec } from './kustomizeSettings';

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
