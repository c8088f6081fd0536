import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import { ConfigError } from '../errors';
import { type KubeCredentials, refusePlainHttp } from './kubeConfigCredentials';

type Entry<T> = { name?: unknown } & T;
interface ClusterEntry {
  cluster?: Record<string, unknown>;
}
interface UserEntry {
  user?: Record<string, unknown>;
}
interface ContextEntry {
  context?: { cluster?: unknown; user?: unknown };
}

/** A kubeconfig whose user this reader does not resolve: lib/kube/clientNodeCredentials.ts may. */
export class UnsupportedKubeconfigUser extends ConfigError {}

const hint =
  'the functions take a kubeconfig with static credentials (a token, a token file or a client certificate), as docs/functions.md step 3 writes one; on EKS, LIGHTKEEPER_EKS_CLUSTER instead';

/**
 * The current context's server and credentials from a kubeconfig's text, resolved as client-node's
 * KubeConfig resolves them (lib/kube/kubeConfigCredentials.ts, the CLI's path; the unit tests compare
 * the two), without loading client-node: the functions read one kubeconfig per container, and
 * client-node's import was a third of their cold start. Static credentials only: a user that runs an
 * exec plugin or an auth provider, logs in with a password or impersonates (`as`) is refused with
 * what to use instead. `file`: where the text was read, against which relative paths resolve.
 */
export function staticKubeconfigCredentials(text: string, file?: string): KubeCredentials {
  const where = file ?? 'the kubeconfig';
  let doc: {
    'current-context'?: unknown;
    clusters?: Entry<ClusterEntry>[];
    users?: Entry<UserEntry>[];
    contexts?: Entry<ContextEntry>[];
  };
  try {
    doc = parse(text) ?? {};
  } catch (e) {
    throw new ConfigError(`cannot read ${where}`, { subject: where, cause: e });
  }
  const context = byName(doc.contexts, doc['current-context'])?.context;
  const clusterEntry = byName(doc.clusters, context?.cluster);
  const cluster = clusterEntry?.cluster;
  if (!cluster || typeof cluster.server !== 'string')
    throw new ConfigError('kubeconfig has no current cluster');
  const name = String(clusterEntry.name);
  const server = cluster.server.replace(/\/$/, '');
  const skipTLSVerify = cluster['insecure-skip-tls-verify'] === true;
  refusePlainHttp({ name, server, skipTLSVerify });
  const user = byName(doc.users, context?.user)?.user ?? {};
  for (const field of ['exec', 'auth-provider', 'username', 'as'])
    if (user[field] !== undefined && user[field] !== null)
      throw new UnsupportedKubeconfigUser(
        `${where}: its user's \`${field}\` is not supported by the functions`,
        {
          subject: where,
          hint,
        },
      );
  const root = file ? dirname(file) : undefined;
  const path = (value: unknown) =>
    typeof value !== 'string' || value === ''
      ? undefined
      : !root || isAbsolute(value)
        ? value
        : join(root, value);
  const read = (fileField: unknown, dataField: unknown): Buffer | undefined => {
    const f = path(fileField);
    if (f) return readFileSync(f);
    return typeof dataField === 'string' && dataField !== '' ? Buffer.from(dataField, 'base64') : undefined;
  };
  const headers: Record<string, string> = {};
  const tokenFile = typeof user['token-file'] === 'string' ? user['token-file'] : undefined;
  const token = user.token || (tokenFile ? readFileSync(tokenFile).toString() : undefined);
  if (typeof token === 'string' && token !== '') headers.Authorization = `Bearer ${token}`;
  const ca = read(cluster['certificate-authority'], cluster['certificate-authority-data']);
  const cert = read(user['client-certificate'], user['client-certificate-data']);
  const key = read(user['client-key'], user['client-key-data']);
  const tls = {
    ...(ca ? { ca: ca as unknown as string } : {}),
    ...(cert ? { cert: cert as unknown as string } : {}),
    ...(key ? { key: key as unknown as string } : {}),
    rejectUnauthorized: !skipTLSVerify,
  };
  return { server, tls, headers };
}

function byName<T>(entries: Entry<T>[] | undefined, name: unknown): Entry<T> | undefined {
  return Array.isArray(entries) ? entries.find((e) => e?.name === name) : undefined;
}
