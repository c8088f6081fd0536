import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../../lib/webhook/decodeBody';

describe('decodeBody', () => {
  it('passes text through and measures it in UTF-8 bytes', () => {
    expect(decodeBody('{"a":"é"}', false, 100)).toEqual({ tooLarge: false, bytes: 10, text: '{"a":"é"}' });
    expect(decodeBody('é'.repeat(6), false, 11)).toEqual({ tooLarge: true, bytes: 12 });
  });

  it('decodes base64 bodies to the exact bytes that were signed', () => {
    const text = '{"ref":"refs/heads/main","ü":1}';
    const encoded = Buffer.from(text).toString('base64');
    expect(decodeBody(encoded, true, 100)).toEqual({ tooLarge: false, bytes: Buffer.byteLength(text), text });
  });

  it('refuses an oversized base64 body from its encoded length', () => {
    const encoded = Buffer.alloc(2048).toString('base64');
    expect(decodeBody(encoded, true, 1024)).toMatchObject({ tooLarge: true });
    expect(decodeBody(encoded, true, 2048)).toMatchObject({ tooLarge: false, bytes: 2048 });
  });

  it('accepts bytes and treats a missing body as empty', () => {
    expect(decodeBody(new TextEncoder().encode('{}'), false, 10)).toEqual({
      tooLarge: false,
      bytes: 2,
      text: '{}',
    });
    expect(decodeBody(undefined, false, 10)).toEqual({ tooLarge: false, bytes: 0, text: '' });
  });
});
