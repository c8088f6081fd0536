import { createSecureContext } from 'node:tls';
import type { TlsOptions } from './kubeConfigCredentials';

/**
 * The TLS part of a pool's connect options: one secure context for every connection the pool
 * opens. Handed `ca`, `cert` and `key` instead, Node parses the CA, certificate and private key
 * again for each connection (about 2 ms of CPU each here; a first apply opens 32). Credentials the
 * context cannot be made from are passed on as they are, so they fail at connect as they did.
 */
export function tlsConnectOptions(tls: TlsOptions) {
  const { ca, cert, key, rejectUnauthorized } = tls;
  try {
    return { secureContext: createSecureContext({ ca, cert, key }), rejectUnauthorized };
  } catch {
    return tls;
  }
}
