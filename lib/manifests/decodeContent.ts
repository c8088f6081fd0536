const utf8 = new TextDecoder('utf-8', { fatal: true });

/** File bytes or text to text, refusing oversized files before any parsing and dropping a BOM. */
export function decodeContent(
  content: Uint8Array | string,
  maxBytes: number,
): { ok: true; text: string } | { ok: false; reason: string } {
  const size = typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : content.byteLength;
  if (size > maxBytes)
    return { ok: false, reason: `file is ${size} bytes, over the limit of ${maxBytes} bytes` };
  if (typeof content === 'string') return { ok: true, text: content.replace(/^\uFEFF/, '') };
  try {
    return { ok: true, text: utf8.decode(content) };
  } catch {
    return { ok: false, reason: 'file is not valid UTF-8' };
  }
}
