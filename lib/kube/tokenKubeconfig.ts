import { readFileSync } from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { ConfigError } from '../errors';

/**
 * A self-contained kubeconfig (CA embedded, so it fits an SSM parameter) for the current cluster of
 * `base`, authenticating with a bearer token and nothing else of `base`'s credentials.
 */
export function tokenKubeconfig(base: KubeConfig, user: string, token: string): string {
  const cluster = base.getCurrentCluster();
  if (!cluster) throw new ConfigError('kubeconfig has no current cluster');
  const caData = cluster.caData ?? (cluster.caFile && readFileSync(cluster.caFile).toString('base64'));
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: cluster.name,
        cluster: {
          server: cluster.server,
          ...(caData ? { 'certificate-authority-data': caData } : {}),
          ...(cluster.tlsServerName ? { 'tls-server-name': cluster.tlsServerName } : {}),
          ...(cluster.skipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
        },
      },
    ],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: user, context: { cluster: cluster.name, user } }],
    'current-context': user,
  });
}
