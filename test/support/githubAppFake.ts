import { generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An RSA key pair as GitHub hands a GitHub App's private key out (PKCS#1 PEM). */
export function appKeyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKey, publicKey };
}

export interface MintedToken {
  installationId: string;
  token: string;
  expiresAt: number;
}

/**
 * A loopback GitHub REST API serving `POST /app/installations/{id}/access_tokens` as GitHub does:
 * the bearer JWT must be RS256-signed by the App's key (checked with `publicKey`), issued by
 * `appId` and not expired; the answer is a fresh token expiring `tokenLifetimeMs` from now.
 */
export async function startGitHubAppFake(appId: string, publicKey: string) {
  const minted: MintedToken[] = [];
  const refused: string[] = [];
  const state = { tokenLifetimeMs: 60 * 60_000 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = (status: number, body: unknown) =>
        res
          .writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
          .end(JSON.stringify(body));
      const match = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !match?.[1]) return answer(404, { message: 'Not Found' });
      const jwt = (req.headers.authorization ?? '').replace(/^bearer /i, '');
      const problem = jwtProblem(jwt, appId, publicKey);
      if (problem) {
        refused.push(problem);
        return answer(401, { message: problem });
      }
      const token = `ghs_${randomBytes(18).toString('hex')}`;
      const expiresAt = Date.now() + state.tokenLifetimeMs;
      minted.push({ installationId: match[1], token, expiresAt });
      answer(201, {
        token,
        expires_at: new Date(expiresAt).toISOString(),
        permissions: { contents: 'read' },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    minted,
    refused,
    state,
    /** Whether `token` was minted here and has not expired: what the git server accepts. */
    live: (token: string) => minted.some((m) => m.token === token && m.expiresAt > Date.now()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type GitHubAppFake = Awaited<ReturnType<typeof startGitHubAppFake>>;

function jwtProblem(jwt: string, appId: string, publicKey: string): string | undefined {
  const [header, payload, signature] = jwt.split('.');
  if (!header || !payload || !signature) return 'A JSON web token could not be decoded';
  const signed = verify(
    'RSA-SHA256',
    Buffer.from(`${header}.${payload}`),
    publicKey,
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return 'A JSON web token could not be decoded';
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
    iss?: unknown;
    exp?: number;
  };
  if (String(claims.iss) !== appId) return 'Integration not found';
  if (!claims.exp || claims.exp * 1000 < Date.now())
    return "'Expiration time' claim ('exp') is too far in the future or expired";
  return undefined;
}
