import { createHash } from 'node:crypto';
import { ConfigError, GitFetchError } from '../errors';
import { refusePlainHttpCredentials } from './refusePlainHttpCredentials';

/** A GitHub App installation, as a Flux `githubApp*` Secret holds it. */
export interface GitHubApp {
  appId: string;
  installationId: string;
  privateKey: string;
  /** The REST API root, for GitHub Enterprise Server (e.g. https://ghe.example.com/api/v3). */
  baseUrl?: string | undefined;
}

/** Who asks, so a token is never shared across tracks' identities or Secrets. */
export interface TokenScope {
  /** The identity the Secret was read as, and where it was read from. */
  identity: string;
  /** Names the Secret in errors. */
  subject: string;
}

interface CachedToken {
  token: string;
  expiresAt: number;
}

/** GitHub's installation tokens live an hour; a new one is minted this long before expiry. */
export const refreshBeforeExpiryMs = 5 * 60_000;
const cache = new Map<string, CachedToken>();
const maxCached = 256;

/**
 * An installation access token for `app`: minted with @octokit/auth-app (a JWT signed with the
 * App's private key, then `POST /app/installations/{id}/access_tokens`), kept in this process so a
 * warm Lambda reuses it until shortly before it expires. Keyed by everything that grants it, so
 * no other identity, Secret, App, installation or key ever gets it. Neither the token nor the key
 * reaches an error message.
 */
export async function githubAppToken(
  app: GitHubApp,
  scope: TokenScope,
  now = Date.now(),
): Promise<{ token: string; stableKey: string }> {
  const key = cacheKey(app, scope);
  const cached = cache.get(key);
  if (cached && cached.expiresAt - refreshBeforeExpiryMs > now)
    return { token: cached.token, stableKey: key };
  const minted = await mint(app, scope.subject);
  if (cache.size >= maxCached) cache.delete(cache.keys().next().value as string);
  cache.set(key, minted);
  return { token: minted.token, stableKey: key };
}

/** A digest of everything that grants the token (never the key itself). */
function cacheKey(app: GitHubApp, scope: TokenScope): string {
  const grant = [scope.identity, app.baseUrl ?? '', app.appId, app.installationId, app.privateKey];
  return createHash('sha256').update(JSON.stringify(grant)).digest('hex');
}

async function mint(app: GitHubApp, subject: string): Promise<CachedToken> {
  const what = `GitHub App ${app.appId} installation ${app.installationId}`;
  if (app.baseUrl) {
    try {
      refusePlainHttpCredentials(app.baseUrl, { type: 'token', token: '' });
    } catch (e) {
      throw new ConfigError(`${subject}: githubAppBaseURL: ${(e as Error).message}`, { subject });
    }
  }
  try {
    // Loaded on first use: only tracks with a GitHub App pay for it (CLI start-up, Lambda cold start).
    const [{ createAppAuth }, { Octokit }] = await Promise.all([
      import('@octokit/auth-app'),
      import('@octokit/core'),
    ]);
    const octokit = new Octokit({
      authStrategy: createAppAuth,
      auth: { appId: app.appId, privateKey: app.privateKey, installationId: app.installationId },
      ...(app.baseUrl ? { baseUrl: app.baseUrl.replace(/\/+$/, '') } : {}),
    });
    const { token, expiresAt } = (await octokit.auth({ type: 'installation' })) as {
      token: string;
      expiresAt: string;
    };
    return { token, expiresAt: Date.parse(expiresAt) };
  } catch (e) {
    // No cause: a request error carries the request, and a key error may quote the key.
    const reason = redacted(describe(e), app.privateKey);
    const status = (e as { status?: unknown }).status;
    const message = `${subject}: ${what}: no installation token: ${reason}`;
    if (typeof status === 'number' && status >= 400 && status < 500)
      throw new ConfigError(message, { subject });
    if (typeof status === 'number') throw new GitFetchError(message, { subject });
    throw new ConfigError(message, { subject });
  }
}

function describe(e: unknown): string {
  const status = (e as { status?: unknown }).status;
  const body = (e as { response?: { data?: { message?: unknown } } }).response?.data;
  if (typeof status === 'number' && status > 0) {
    const said = typeof body?.message === 'string' ? `: ${body.message}` : '';
    return `GitHub answered HTTP ${status}${said}`;
  }
  if (typeof status === 'number') return 'GitHub could not be reached';
  const message = e instanceof Error ? e.message : String(e);
  return /key|decoder|pem|asn1/i.test(message)
    ? 'the private key (githubAppPrivateKey) is not a valid PEM RSA key'
    : message;
}

function redacted(text: string, secret: string): string {
  const lines = secret.split('\n').filter((l) => l.length > 8 && !l.startsWith('-----'));
  return lines.reduce((t, l) => t.split(l).join('[redacted]'), text);
}
