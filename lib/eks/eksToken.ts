import { Hash } from '@smithy/hash-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';

/** What aws-iam-authenticator's verifier requires of a token (pkg/token/token.go). */
export const eksTokenPrefix = 'k8s-aws-v1.';
export const clusterIdHeader = 'x-k8s-aws-id';
/** Ignored by STS (a presigned GetCallerIdentity lives 15 minutes from X-Amz-Date), sent as 60 as aws-iam-authenticator does. */
export const presignExpiresSeconds = 60;
/** How long STS accepts the presigned request after X-Amz-Date. */
export const tokenLifetimeMs = 15 * 60_000;
/** aws-iam-authenticator marks its tokens expired a minute early; so does this. */
export const tokenUsableMs = 14 * 60_000;

type Credentials = ConstructorParameters<typeof SignatureV4>[0]['credentials'];

export interface EksToken {
  /** `k8s-aws-v1.` + the presigned URL, base64url without padding: the bearer token. */
  token: string;
  /** The presigned STS GetCallerIdentity URL inside the token. */
  url: string;
  signedAt: Date;
  /** After this the token is not used any more (14 of its 15 minutes). */
  refreshAt: Date;
}

export interface EksTokenOptions {
  /** The EKS cluster's name: signed as the `x-k8s-aws-id` header, so the token is good for it alone. */
  cluster: string;
  region: string;
  /** Static credentials or a provider (e.g. the SDK's `fromNodeProviderChain()`). */
  credentials: Credentials;
  /** The STS endpoint (see `stsEndpoint`). */
  sts: URL;
  signingDate?: Date;
}

/**
 * A bearer token for an EKS cluster, made as aws-iam-authenticator and `aws eks get-token` make it:
 * a SigV4-presigned STS GetCallerIdentity request with the cluster's name in a signed header. The
 * API server's authenticator replays the request to STS to learn who signed it.
 */
export async function eksToken(options: EksTokenOptions): Promise<EksToken> {
  const { sts } = options;
  const signer = sigV4Signer(options.credentials, options.region, 'sts');
  const request = new HttpRequest({
    method: 'GET',
    protocol: sts.protocol,
    hostname: sts.hostname,
    port: sts.port ? Number(sts.port) : undefined,
    path: sts.pathname || '/',
    query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
    headers: { host: sts.host, [clusterIdHeader]: options.cluster },
  });
  const signingDate = options.signingDate ?? new Date();
  const signed = await signer.presign(request, { expiresIn: presignExpiresSeconds, signingDate });
  const url = presignedUrl(signed);
  // X-Amz-Date has whole seconds: the token's life counts from there.
  const signedAt = new Date(Math.floor(signingDate.getTime() / 1000) * 1000);
  return {
    token: eksTokenPrefix + Buffer.from(url).toString('base64url'),
    url,
    signedAt,
    refreshAt: new Date(signedAt.getTime() + tokenUsableMs),
  };
}

/** The SDK's own SigV4 signer, as its clients configure it (checked against AWS's test vectors). */
export function sigV4Signer(credentials: Credentials, region: string, service: string): SignatureV4 {
  // No x-amz-content-sha256 header on signed requests (S3 wants it, STS does not); presigning never adds it.
  return new SignatureV4({
    credentials,
    region,
    service,
    sha256: Hash.bind(null, 'sha256'),
    uriEscapePath: true,
    applyChecksum: false,
  });
}

function presignedUrl(request: Awaited<ReturnType<SignatureV4['presign']>>): string {
  const url = new URL(`${request.protocol}//${request.hostname}`);
  if (request.port) url.port = String(request.port);
  url.pathname = request.path;
  const query = Object.entries(request.query ?? {})
    .flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((v) => [key, v ?? ''] as const))
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return `${url.toString()}?${query}`;
}
