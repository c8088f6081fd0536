import { ConfigError } from '../errors';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import type { TrackKind } from '../track/trackRef';

/** What `lightkeeper create gittrack|clustergittrack` was given. */
export interface TrackOptions {
  url: string;
  branch?: string;
  tag?: string;
  commit?: string;
  path?: string;
  serviceAccount?: string;
  /** A Secret's name; for a ClusterGitTrack `NAMESPACE/NAME`. */
  secretRef?: string;
  authType?: 'token' | 'basic' | 'githubApp';
  defaultNamespace?: string;
  healthTimeout?: string;
  deletionPolicy?: 'Delete' | 'Orphan';
  prune?: boolean;
  suspend?: boolean;
}

const isFullSha = (text: string) => /^[0-9a-f]{40}$/i.test(text);
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** A DNS-1123 subdomain (an object's name), as the API server checks it. */
export function checkName(what: string, name: string): void {
  if (name.length <= 253 && dnsSubdomain.test(name)) return;
  throw new ConfigError(
    `${what} ${JSON.stringify(name)} is not a valid name: lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters`,
    { subject: what, hint: `e.g. ${suggestName(name)}` },
  );
}

/** A DNS-1123 label (a namespace). */
export function checkNamespace(what: string, name: string): void {
  if (name.length <= 63 && dnsLabel.test(name)) return;
  throw new ConfigError(
    `${what} ${JSON.stringify(name)} is not a valid namespace: lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters`,
    { subject: what, hint: `e.g. ${suggestName(name).replaceAll('.', '-').slice(0, 63)}` },
  );
}

const suggestName = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^-a-z0-9.]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '') || 'my-track';

/** The repository URL as the CRD and the fetch accept it: http(s), no credentials in it. */
export function checkRepositoryUrl(url: string): void {
  const scp = /^[\w.-]+@([\w.-]+):\/?(.+)$/.exec(url);
  if (scp)
    throw new ConfigError(
      `--url ${url} is an SSH address: only http(s) remotes are supported (isomorphic-git has no SSH)`,
      {
        subject: '--url',
        hint: `use https://${scp[1]}/${scp[2]}, with a token in a Secret (--secret-ref) for a private repository`,
      },
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`--url ${url} is not a URL`, {
      subject: '--url',
      hint: 'give the http(s) clone URL, e.g. https://github.com/OWNER/REPO.git',
    });
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new ConfigError(`--url ${url}: only http(s) remotes are supported (isomorphic-git has no SSH)`, {
      subject: '--url',
      hint: 'use the https clone URL, with a token in a Secret (--secret-ref) for a private repository',
    });
  if (parsed.username || parsed.password)
    throw new ConfigError(
      '--url must not carry credentials: they would be stored in the track for anyone to read',
      {
        subject: '--url',
        hint: 'put a token in a Secret (key `token`) and name it with --secret-ref',
      },
    );
  if (/\s/.test(url) || url.length > 2048)
    throw new ConfigError('--url has whitespace or is longer than 2048 characters', { subject: '--url' });
}

/** `spec.reference`: one of --branch, --tag, --commit (full SHA); the branch `main` when none. */
export function referenceOf(options: Pick<TrackOptions, 'branch' | 'tag' | 'commit'>): string {
  const given = (['branch', 'tag', 'commit'] as const).filter((k) => options[k] !== undefined);
  if (given.length > 1)
    throw new ConfigError(
      `give one of --branch, --tag or --commit, not ${given.map((k) => `--${k}`).join(' and ')}`,
      {
        subject: '--branch',
      },
    );
  if (options.commit !== undefined && !isFullSha(options.commit))
    throw new ConfigError(`--commit ${options.commit} is not a full commit SHA (40 hex digits)`, {
      subject: '--commit',
      hint: `a track follows a full SHA only: \`git rev-parse ${options.commit}\` prints it`,
    });
  const reference = options.branch ?? options.tag ?? options.commit?.toLowerCase() ?? 'main';
  if (reference.trim() === '' || reference.length > 255 || /\s/.test(reference))
    throw new ConfigError(`reference ${JSON.stringify(reference)} is empty, has whitespace or is too long`, {
      subject: '--branch',
    });
  return reference;
}

function checkSubPath(path: string): void {
  if (path.startsWith('/') || /(^|\/)\.\.(\/|$)/.test(path) || path.length > 1024)
    throw new ConfigError(`--path ${path} must be relative to the repository root, without '..'`, {
      subject: '--path',
    });
}

/**
 * The GitTrack or ClusterGitTrack `create` applies (or prints with --export), checked here as far
 * as it can be without the cluster, so a mistake is told before anything is sent.
 */
export function trackManifest(kind: TrackKind, name: string, namespace: string | undefined, o: TrackOptions) {
  checkName(`${kind} name`, name);
  if (kind === 'GitTrack') checkNamespace('namespace', namespace ?? '');
  checkRepositoryUrl(o.url);
  const reference = referenceOf(o);
  if (o.path !== undefined) checkSubPath(o.path);
  const subPath = o.path?.replace(/^\.\/+/, '').replace(/\/+$/, '') || undefined;
  if (o.serviceAccount !== undefined) {
    if (kind === 'ClusterGitTrack')
      throw new ConfigError(
        '--service-account is for a GitTrack: a ClusterGitTrack applies as the reconciler',
        {
          subject: '--service-account',
        },
      );
    checkName('--service-account', o.serviceAccount);
  }
  if (o.defaultNamespace !== undefined) {
    if (kind === 'GitTrack')
      throw new ConfigError("--default-namespace is for a ClusterGitTrack: a GitTrack's is its own", {
        subject: '--default-namespace',
      });
    checkNamespace('--default-namespace', o.defaultNamespace);
  }
  if (o.healthTimeout !== undefined && !/^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$/.test(o.healthTimeout))
    throw new ConfigError(`--health-timeout ${o.healthTimeout} is not a duration such as 90s or 2m`, {
      subject: '--health-timeout',
    });
  const r = lightkeeperResources[kind];
  return {
    apiVersion: r.apiVersion,
    kind: r.kind,
    metadata: { name, ...(kind === 'GitTrack' ? { namespace } : {}) },
    spec: {
      repository: o.url,
      reference,
      ...(subPath ? { subPath } : {}),
      ...(o.secretRef !== undefined ? { auth: authOf(kind, o.secretRef, o.authType ?? 'token') } : {}),
      ...(o.serviceAccount !== undefined ? { serviceAccountName: o.serviceAccount } : {}),
      ...(o.defaultNamespace !== undefined ? { defaultNamespace: o.defaultNamespace } : {}),
      ...(o.healthTimeout !== undefined ? { healthTimeout: o.healthTimeout } : {}),
      ...(o.deletionPolicy !== undefined ? { deletionPolicy: o.deletionPolicy } : {}),
      ...(o.prune === false ? { prune: false } : {}),
      ...(o.suspend ? { suspend: true } : {}),
    },
  };
}

function authOf(kind: TrackKind, secretRef: string, type: 'token' | 'basic' | 'githubApp') {
  const parts = secretRef.split('/');
  if (kind === 'GitTrack') {
    if (parts.length !== 1)
      throw new ConfigError(
        `--secret-ref ${secretRef}: a GitTrack reads a Secret of its own namespace; give its name only`,
        {
          subject: '--secret-ref',
        },
      );
    checkName('--secret-ref', secretRef);
    return { type, secretRef: { name: secretRef } };
  }
  const [namespace, name] = parts;
  if (parts.length !== 2 || !namespace || !name)
    throw new ConfigError(`--secret-ref ${secretRef}: a ClusterGitTrack names its Secret as NAMESPACE/NAME`, {
      subject: '--secret-ref',
    });
  checkNamespace('--secret-ref namespace', namespace);
  checkName('--secret-ref', name);
  return { type, secretRef: { name, namespace } };
}
