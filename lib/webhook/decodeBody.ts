export type BodyInput = string | Uint8Array | null | undefined;

export type DecodedBody =
  | { tooLarge: true; bytes: number }
  | { tooLarge: false; bytes: number; text: string };

/**
 * The delivered body as text, decoding base64 when the gateway encoded it, measured against
 * `maxBytes` before anything else looks at it. An oversized base64 body is refused from its
 * encoded length, without decoding it.
 */
export function decodeBody(body: BodyInput, isBase64Encoded: boolean, maxBytes: number): DecodedBody {
  if (body === null || body === undefined) return { tooLarge: false, bytes: 0, text: '' };
  if (typeof body !== 'string') {
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    if (bytes.length > maxBytes) return { tooLarge: true, bytes: bytes.length };
    return decodeBody(bytes.toString('utf8'), isBase64Encoded, maxBytes);
  }
  if (isBase64Encoded) {
    const estimate = Math.floor((body.length * 3) / 4);
    if (estimate > maxBytes + 2) return { tooLarge: true, bytes: estimate };
    const bytes = Buffer.from(body, 'base64');
    if (bytes.length > maxBytes) return { tooLarge: true, bytes: bytes.length };
    return { tooLarge: false, bytes: bytes.length, text: bytes.toString('utf8') };
  }
  // A string of n UTF-16 units holds at least n UTF-8 bytes: cheap early refusal.
  if (body.length > maxBytes) return { tooLarge: true, bytes: body.length };
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > maxBytes) return { tooLarge: true, bytes };
  return { tooLarge: false, bytes, text: body };
}
