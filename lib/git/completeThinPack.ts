// A thin pack's REF_DELTAs name bases the receiver already holds. git's `index-pack --fix-thin`
// appends those bases to the pack before storing it, so every stored pack is whole: canonical git
// refuses a pack whose bases are elsewhere. lightkeeper does the same, so that the clone stays one
// git accepts and each pack reads on its own.
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { GitObject } from './gitObject';
import { PACK_TYPES } from './packEntryHeader';

const TYPE_NUMBERS = new Map(Object.entries(PACK_TYPES).map(([n, type]) => [type, Number(n)]));

/**
 * `pack` with `bases` (the objects outside it its deltas were resolved against) appended as whole
 * objects, its object count and checksum rewritten (pure). `pack` itself when there are none.
 */
export function completeThinPack(pack: Buffer, bases: Iterable<GitObject>): Buffer {
  const appended: Buffer[] = [];
  for (const base of bases) appended.push(entryHeader(base), deflateSync(base.content));
  if (appended.length === 0) return pack;
  const trailer = pack.length - 20;
  const head = Buffer.from(pack.subarray(0, 12));
  head.writeUInt32BE(pack.readUInt32BE(8) + appended.length / 2, 8);
  const body = Buffer.concat([head, pack.subarray(12, trailer), ...appended]);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

/** A whole object's entry header: its type number and inflated size, 4 bits then 7 at a time. */
function entryHeader({ type, content }: GitObject): Buffer {
  const kind = TYPE_NUMBERS.get(type);
  if (kind === undefined) throw new Error(`a ${type} cannot be stored in a pack`);
  const bytes: number[] = [];
  let size = content.length;
  let byte = (kind << 4) | (size & 0x0f);
  size = Math.floor(size / 16);
  while (size > 0) {
    bytes.push(byte | 0x80);
    byte = size & 0x7f;
    size = Math.floor(size / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}
