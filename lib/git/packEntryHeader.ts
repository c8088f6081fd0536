/** The four object types a pack entry can hold, by its type number (6 and 7 are deltas). */
export const PACK_TYPES: Readonly<Record<number, 'commit' | 'tree' | 'blob' | 'tag'>> = {
  1: 'commit',
  2: 'tree',
  3: 'blob',
  4: 'tag',
};
export const OFS_DELTA = 6;
export const REF_DELTA = 7;
/**
 * The largest object a pack may announce or a delta build (git has no such limit; GitHub refuses
 * files over 100 MiB): what a reader holds for one object stays bounded whatever a server sends.
 */
export const MAX_OBJECT_BYTES = 256 * 1024 * 1024;
export const tooLarge = (size: number) =>
  `announces ${size} bytes, over the ${MAX_OBJECT_BYTES / 1024 / 1024} MiB an object may hold`;

export interface PackEntryHeader {
  kind: number;
  /** Inflated size, as the header announces it. */
  size: number;
  /** An OFS_DELTA's base: the offset of its entry. */
  baseOffset?: number;
  /** A REF_DELTA's base: its id. */
  baseOid?: string;
  /** Where the entry's zlib data starts. */
  dataStart: number;
}

/**
 * The header of the pack entry at `offset`, as git writes it: type and size (size continues in
 * 7-bit groups), then an OFS_DELTA's base distance or a REF_DELTA's base id. `end` is where the
 * entry must stop (the pack's trailing checksum); a header running past it, a base outside the
 * pack or an unknown type is an error naming the offset.
 */
export function readEntryHeader(pack: Buffer, offset: number, end: number): PackEntryHeader {
  let at = offset;
  const next = (): number => {
    if (at >= end) throw new Error(`object at offset ${offset} runs past the end of the pack`);
    return pack[at++] as number;
  };
  let byte = next();
  const kind = (byte >> 4) & 7;
  let size = byte & 0x0f;
  for (let shift = 4; byte & 0x80; shift += 7) {
    byte = next();
    size += (byte & 0x7f) * 2 ** shift;
    // Also NaN: zero groups past 2^1024 multiply 0 by Infinity.
    if (!(size <= MAX_OBJECT_BYTES)) throw new Error(`object at offset ${offset} ${tooLarge(size)}`);
  }
  if (kind === OFS_DELTA) {
    const outside = () => new Error(`object at offset ${offset} has a delta base outside the pack`);
    byte = next();
    let distance = byte & 0x7f;
    while (byte & 0x80) {
      // The distance only grows: once past the pack's start, reading on cannot bring it back.
      if (distance >= offset) throw outside();
      byte = next();
      distance = (distance + 1) * 128 + (byte & 0x7f);
    }
    if (distance <= 0 || distance > offset) throw outside();
    return { kind, size, baseOffset: offset - distance, dataStart: at };
  }
  if (kind === REF_DELTA) {
    if (at + 20 > end) throw new Error(`object at offset ${offset} runs past the end of the pack`);
    return { kind, size, baseOid: pack.toString('hex', at, at + 20), dataStart: at + 20 };
  }
  if (PACK_TYPES[kind] === undefined) throw new Error(`object at offset ${offset} has unknown type ${kind}`);
  return { kind, size, dataStart: at };
}
