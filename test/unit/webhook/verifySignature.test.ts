import { createHmac } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { pushPayload } from '../../../lib/localstack/pushPayload';
import { verifySignature } from '../../../lib/webhook/verifySignature';

const body = JSON.stringify(pushPayload('branch-created'));

describe('verifySignature', () => {
  it('accepts the sha256 signature of the current secret', async () => {
    const signatureHeader = await sign('current', body);
    expect(await verifySignature({ secrets: ['current', 'previous'], rawBody: body, signatureHeader })).toBe(
      'valid',
    );
  });

  it('accepts the previous secret during a rotation', async () => {
    const signatureHeader = await sign('previous', body);
    expect(await verifySignature({ secrets: ['current', 'previous'], rawBody: body, signatureHeader })).toBe(
      'valid',
    );
  });

  it('refuses a forged signature and a body changed after signing', async () => {
    expect(
      await verifySignature({
        secrets: ['current'],
        rawBody: body,
        signatureHeader: await sign('guess', body),
      }),
    ).toBe('mismatch');
    const signatureHeader = await sign('current', body);
    expect(await verifySignature({ secrets: ['current'], rawBody: `${body} `, signatureHeader })).toBe(
      'mismatch',
    );
    expect(await verifySignature({ secrets: ['current'], rawBody: body, signatureHeader: 'sha256=zz' })).toBe(
      'mismatch',
    );
  });

  it('refuses a missing signature', async () => {
    expect(await verifySignature({ secrets: ['current'], rawBody: body, signatureHeader: undefined })).toBe(
      'missing',
    );
  });

  it('refuses SHA-1, even when correct', async () => {
    const sha1 = `sha1=${createHmac('sha1', 'current').update(body).digest('hex')}`;
    expect(
      await verifySignature({
        secrets: ['current'],
        rawBody: body,
        signatureHeader: undefined,
        sha1Header: sha1,
      }),
    ).toBe('sha1-only');
    expect(await verifySignature({ secrets: ['current'], rawBody: body, signatureHeader: sha1 })).toBe(
      'sha1-only',
    );
  });

  it('refuses an empty body and needs a secret', async () => {
    expect(await verifySignature({ secrets: ['current'], rawBody: '', signatureHeader: 'sha256=00' })).toBe(
      'mismatch',
    );
    await expect(
      verifySignature({ secrets: [], rawBody: body, signatureHeader: 'sha256=00' }),
    ).rejects.toThrow(/at least one secret/);
  });
});
