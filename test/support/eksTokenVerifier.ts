// The checks aws-iam-authenticator's verifier (pkg/token/token.go, `Verify`) makes of a token
// before it replays the presigned request to STS, with its error messages: a token that passes
// here is one the EKS authenticator would send on to STS.

const v1Prefix = 'k8s-aws-v1.';
const maxTokenLenBytes = 4096;
const presignedUrlExpirationMs = 15 * 60_000;
const parameterAllowlist = new Set([
  'action',
  'version',
  'x-amz-algorithm',
  'x-amz-credential',
  'x-amz-date',
  'x-amz-expires',
  'x-amz-security-token',
  'x-amz-signature',
  'x-amz-signedheaders',
]);

export interface VerifierOptions {
  /** Hosts the verifier's partition resolves for STS (sts.<region>.amazonaws.com, …). */
  stsHosts: readonly string[];
  /** A local STS stand-in is plain http; the verifier itself only accepts https. */
  scheme?: 'https:' | 'http:';
  now?: Date;
}

/** Throws the verifier's FormatError message, or returns the presigned URL it would GET. */
export function verifyEksTokenFormat(token: string, options: VerifierOptions): URL {
  const fail = (message: string): never => {
    throw new Error(`input token was not properly formatted: ${message}`);
  };
  if (token.length > maxTokenLenBytes) fail('token is too large');
  if (!token.startsWith(v1Prefix)) fail(`token is missing expected "${v1Prefix}" prefix`);
  const encoded = token.slice(v1Prefix.length);
  // Go's base64.RawURLEncoding: the URL-safe alphabet, no padding.
  if (!/^[A-Za-z0-9_-]*$/.test(encoded)) fail('illegal base64 data');
  const url = new URL(Buffer.from(encoded, 'base64url').toString());
  if (url.protocol !== (options.scheme ?? 'https:'))
    fail(`unexpected scheme "${url.protocol}" in pre-signed URL`);
  if (!options.stsHosts.includes(url.host)) fail(`unexpected hostname "${url.host}" in pre-signed URL`);
  if (url.pathname !== '/') fail('unexpected path in pre-signed URL');
  const lower = new Map<string, string>();
  const seen = new Set<string>();
  for (const key of new Set(url.searchParams.keys())) {
    if (seen.has(key.toLowerCase())) fail(`duplicate query parameter found: "${key}"`);
    seen.add(key.toLowerCase());
  }
  for (const key of new Set(url.searchParams.keys())) {
    if (!parameterAllowlist.has(key.toLowerCase())) fail(`non-whitelisted query parameter "${key}"`);
    const values = url.searchParams.getAll(key);
    if (values.length !== 1) fail('query parameter with multiple values not supported');
    lower.set(key.toLowerCase(), values[0] as string);
  }
  if (lower.get('action') !== 'GetCallerIdentity') fail('unexpected action parameter in pre-signed URL');
  const signed = (lower.get('x-amz-signedheaders') ?? '').split(';').map((h) => h.toLowerCase());
  if (!signed.includes('x-k8s-aws-id'))
    fail('client did not sign the x-k8s-aws-id header in the pre-signed URL');
  const expiresText = lower.get('x-amz-expires') ?? '';
  const expires = /^-?\d+$/.test(expiresText) ? Number(expiresText) : Number.NaN;
  if (!(expires >= 0 && expires <= 900))
    fail(`invalid X-Amz-Expires parameter in pre-signed URL: ${expiresText}`);
  const date = lower.get('x-amz-date');
  if (!date) return fail('X-Amz-Date parameter must be present in pre-signed URL');
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(date);
  if (!match) return fail(`error parsing X-Amz-Date parameter ${date}`);
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const signedAt = Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
  if ((options.now ?? new Date()).getTime() > signedAt + presignedUrlExpirationMs)
    fail('X-Amz-Date parameter is expired (15 minute expiration)');
  return url;
}
