import { Webhooks } from '@octokit/webhooks';
import { BoundedMemo } from '../memo/boundedMemo';

export type SignatureCheck = 'valid' | 'missing' | 'sha1-only' | 'mismatch';

export interface VerifySignatureOptions {
  /** The current secret first, then any still accepted during a rotation. */
  secrets: readonly string[];
  /** The body exactly as delivered (before any JSON parsing). */
  rawBody: string;
  /** `X-Hub-Signature-256`. */
  signatureHeader: string | undefined;
  /** `X-Hub-Signature` (HMAC-SHA1): never accepted, only reported. */
  sha1Header?: string | undefined;
}

// `Webhooks#verify` checks only the constructor's `secret` (its `additionalSecrets` serve
// `verifyAndReceive`, which also parses the body as JSON and so cannot take a form-encoded
// delivery): one verifier per secret, built once per secret, tried in order.
const verifiers = new BoundedMemo<string, Webhooks>(8);
const verifierFor = (secret: string): Webhooks => verifiers.get(secret, () => new Webhooks({ secret }));

/**
 * Checks a GitHub `sha256=` HMAC over the raw body against each configured secret (constant-time
 * per comparison). SHA-1 signatures are refused: a delivery carrying only one is `sha1-only`.
 */
export async function verifySignature(options: VerifySignatureOptions): Promise<SignatureCheck> {
  const { secrets, rawBody, signatureHeader } = options;
  if (secrets.length === 0) throw new TypeError('verifySignature needs at least one secret');
  if (!signatureHeader) return options.sha1Header ? 'sha1-only' : 'missing';
  if (!signatureHeader.startsWith('sha256=')) {
    return signatureHeader.startsWith('sha1=') ? 'sha1-only' : 'mismatch';
  }
  // verify() refuses an empty payload; an empty body can never carry a valid signature anyway.
  if (rawBody === '') return 'mismatch';
  for (const secret of secrets) {
    if (secret && (await verifierFor(secret).verify(rawBody, signatureHeader))) return 'valid';
  }
  return 'mismatch';
}
