import type { RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { ConfigError } from '../errors';

/** What a connection to the API server presents: its CA, a client certificate, whether it verifies. */
export interface TlsOptions {
  ca?: string;
  cert?: string;
  key?: string;
  rejectUnauthorized: boolean;
}

/** Where the API server is and what a request presents to it. */
export interface KubeCredentials {
  server: string;
  tls: TlsOptions;
  headers: Record<string, string>;
}

/** A plain-http server is refused unless the kubeconfig skips TLS verification for it. */
export function refusePlainHttp(cluster: { name: string; server: string; skipTLSVerify: boolean }): void {
  if (cluster.server.startsWith('http:') && !cluster.skipTLSVerify) {
    throw new ConfigError(`the kubeconfig's cluster ${cluster.name} is plain http (${cluster.server})`, {
      subject: cluster.server,
      hint: 'use its https address, or set insecure-skip-tls-verify: true on that cluster to allow http',
    });
  }
}

/**
 * The current cluster's address, TLS options and headers (a bearer token) from a kubeconfig, as
 * @kubernetes/client-node resolves them. A plain-http server is refused unless the kubeconfig
 * skips TLS verification for it.
 */
export async function kubeConfigCredentials(kc: KubeConfig): Promise<KubeCredentials> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new ConfigError('kubeconfig has no current cluster');
  refusePlainHttp(cluster);
  const https: RequestOptions = {};
  try {
    await kc.applyToHTTPSOptions(https);
  } catch (e) {
    throw new ConfigError(`cannot use the credentials of cluster ${cluster.name}`, {
      subject: cluster.server,
      cause: e,
    });
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(https.headers ?? {})) if (typeof v === 'string') headers[k] = v;
  const tls = {
    ca: https.ca as string | undefined,
    cert: https.cert as string | undefined,
    key: https.key as string | undefined,
    rejectUnauthorized: https.rejectUnauthorized ?? true,
  };
  return { server: cluster.server, tls, headers };
}
