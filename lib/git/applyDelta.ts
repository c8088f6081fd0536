// Git's delta format (pack objects of type OFS_DELTA and REF_DELTA): the sizes of base and result,
// then instructions that copy a range of the base or insert literal bytes.
import { MAX_OBJECT_BYTES, tooLarge } from './packEntryHeader';

/**
 * The object `delta` describes on top of `base`; throws an Error on any malformed instruction, or
 * `limit.error` when the result would be larger than `limit.bytes` (nothing allocated for it then).
 */
export function applyDelta(
  base: Uint8Array,
  delta: Uint8Array,
  limit?: { bytes: number; error: (size: number) => Error },
): Buffer {
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      if (at >= delta.length) throw new Error('delta header truncated');
      byte = delta[at++] as number;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      // No object is larger (nor NaN, which zero groups past 2^1024 would make).
      if (!(value <= MAX_OBJECT_BYTES)) throw new Error(`delta header ${tooLarge(value)}`);
    } while (byte & 0x80);
    return value;
  };
  const baseSize = varint();
  if (baseSize !== base.length)
    throw new Error(`delta expects a base of ${baseSize} bytes, got ${base.length}`);
  // Bounded before anything is reserved: a few bytes of delta must not reserve gigabytes.
  const resultSize = varint();
  if (limit !== undefined && resultSize > limit.bytes) throw limit.error(resultSize);
  const result = Buffer.allocUnsafe(resultSize);
  let written = 0;

  while (at < delta.length) {
    const op = delta[at++] as number;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let bit = 0; bit < 4; bit++)
        if (op & (1 << bit)) offset += (delta[at++] as number) * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++)
        if (op & (1 << (4 + bit))) size += (delta[at++] as number) << (8 * bit);
      if (at > delta.length) throw new Error('delta copy instruction truncated');
      if (size === 0) size = 0x10000;
      if (offset + size > base.length || written + size > result.length)
        throw new Error('delta copy out of range');
      result.set(base.subarray(offset, offset + size), written);
      written += size;
    } else if (op !== 0) {
      if (at + op > delta.length || written + op > result.length)
        throw new Error('delta insert out of range');
      result.set(delta.subarray(at, at + op), written);
      at += op;
      written += op;
    } else {
      throw new Error('delta has a reserved instruction 0');
    }
  }
  if (written !== result.length) throw new Error(`delta produced ${written} of ${result.length} bytes`);
  return result;
}
