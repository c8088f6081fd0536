// A version 2 pack index (`objects/pack/*.idx`, as git and isomorphic-git write it): object id →
// offset in the pack, plus where each object's bytes end (the next object's offset).
const MAGIC = 0xff744f63;
const HEADER = 8;
const FANOUT = 256 * 4;
const LARGE_OFFSET = 0x80000000;

export interface PackIndex {
  /** Number of objects. */
  readonly count: number;
  /** The offset of `oid` (20 bytes) in the pack, or undefined when this pack does not hold it. */
  offsetOf(oid: Uint8Array): number | undefined;
  /** Where the object at `offset` ends: the next object's offset, or the start of the pack trailer. */
  endOf(offset: number): number;
}

/** Parses a v2 index; throws an Error saying what is wrong with it otherwise. */
export function parsePackIndex(idx: Buffer, packLength: number): PackIndex {
  if (idx.length < HEADER + FANOUT + 40 || idx.readUInt32BE(0) !== MAGIC || idx.readUInt32BE(4) !== 2) {
    throw new Error('not a version 2 pack index');
  }
  const count = idx.readUInt32BE(HEADER + FANOUT - 4);
  const oidsAt = HEADER + FANOUT;
  const offsetsAt = oidsAt + count * 24; // object ids (20 bytes each), then CRCs (4 bytes each)
  const largeAt = offsetsAt + count * 4;
  if (idx.length < largeAt + 40) throw new Error(`pack index too short for ${count} objects`);

  const offsets = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const small = idx.readUInt32BE(offsetsAt + i * 4);
    if (small < LARGE_OFFSET) offsets[i] = small;
    else {
      const at = largeAt + (small - LARGE_OFFSET) * 8;
      if (at + 8 > idx.length - 40) throw new Error('pack index large offset out of range');
      offsets[i] = Number(idx.readBigUInt64BE(at));
    }
  }
  const sorted = Float64Array.from(offsets).sort();
  const trailer = packLength - 20;

  /** The entry at `i` against `oid`: negative when the entry sorts first. */
  const compare = (i: number, oid: Uint8Array): number =>
    Buffer.compare(idx.subarray(oidsAt + i * 20, oidsAt + i * 20 + 20), oid);

  return {
    count,
    offsetOf(oid) {
      const first = oid[0] ?? 0;
      let low = first === 0 ? 0 : idx.readUInt32BE(HEADER + (first - 1) * 4);
      let high = idx.readUInt32BE(HEADER + first * 4);
      while (low < high) {
        const mid = (low + high) >>> 1;
        const order = compare(mid, oid);
        if (order === 0) return offsets[mid];
        if (order < 0) low = mid + 1;
        else high = mid;
      }
      return undefined;
    },
    endOf(offset) {
      let low = 0;
      let high = sorted.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if ((sorted[mid] ?? 0) <= offset) low = mid + 1;
        else high = mid;
      }
      return low < sorted.length ? (sorted[low] ?? trailer) : trailer;
    },
  };
}
