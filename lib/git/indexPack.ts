// Builds the version 2 index of a received pack with Node's zlib and crypto, as `git index-pack`
// does: the pack's checksum is verified, every object (deltas resolved) hashed, and the index is
// byte for byte the one git writes.
import { createHash } from 'node:crypto';
import { crc32, inflateSync } from 'node:zlib';
import { applyDelta } from './applyDelta';
import { overLimit } from './gitLimits';
import type { GitObject } from './gitObject';
import { objectId } from './objectStore';
import { PACK_TYPES, readEntryHeader } from './packEntryHeader';

interface Entry {
  offset: number;
  /** Inflated size, as the entry's header announces it. */
  size: number;
  dataStart: number;
  end: number;
  kind: number;
  baseOffset?: number;
  baseOid?: string;
  oid?: string;
}

const CACHE_BYTES = 64 * 1024 * 1024;
const LARGE_OFFSET = 0x80000000;

export interface IndexPackBounds {
  /** No object, inflated or rebuilt from a delta, may be larger (a GitLimitError names the setting). */
  maxObjectBytes: number;
  /** The server, for the limit's message. */
  subject: string;
}

/**
 * The `.idx` for `pack`. `external` finds the base of a REF_DELTA that is not in the pack (a thin
 * pack's); `seen` is told each object with the id computed from it. Throws an Error saying what is
 * wrong with a corrupt or incomplete pack, a GitLimitError for an object over `bounds`.
 */
export async function indexPack(
  pack: Buffer,
  external: (oid: string) => Promise<GitObject | undefined>,
  seen: (oid: string, object: GitObject) => void = () => {},
  bounds: IndexPackBounds = { maxObjectBytes: Number.MAX_SAFE_INTEGER, subject: 'the pack' },
): Promise<Buffer> {
  const tooLarge = (at: number, size: number) =>
    overLimit(
      'maxObjectBytes',
      `${bounds.subject} sent an object of ${size} bytes (pack offset ${at})`,
      bounds.maxObjectBytes,
      bounds.subject,
    );
  if (pack.length < 32 || pack.toString('latin1', 0, 4) !== 'PACK') throw new Error('not a pack');
  const trailer = pack.length - 20;
  if (!createHash('sha1').update(pack.subarray(0, trailer)).digest().equals(pack.subarray(trailer))) {
    throw new Error('pack checksum mismatch');
  }
  const count = pack.readUInt32BE(8);
  const entries: Entry[] = [];
  const byOffset = new Map<number, Entry>();
  const byOid = new Map<string, Entry>();
  const crcs = new Map<Entry, number>();
  const cache = new Map<number, GitObject>();
  let cached = 0;
  const remember = (offset: number, object: GitObject) => {
    if (cached + object.content.length > CACHE_BYTES) {
      cache.clear();
      cached = 0;
    }
    cache.set(offset, object);
    cached += object.content.length;
  };

  let at = 12;
  for (let i = 0; i < count; i++) {
    const entry = readHeader(pack, at, trailer);
    if (entry.size > bounds.maxObjectBytes) throw tooLarge(at, entry.size);
    // Never more than the entry announces: a hostile server's small pack must not inflate to gigabytes.
    const { buffer, engine } = inflateSync(pack.subarray(entry.dataStart, trailer), {
      info: true,
      maxOutputLength: Math.max(entry.size, 1),
    }) as unknown as {
      buffer: Buffer;
      engine: { bytesWritten: number };
    };
    if (buffer.length !== entry.size) throw new Error(`object at offset ${at} inflated to the wrong size`);
    entry.end = entry.dataStart + engine.bytesWritten;
    crcs.set(entry, crc32(pack.subarray(at, entry.end)));
    const type = PACK_TYPES[entry.kind];
    if (type !== undefined) {
      const object = { type, content: buffer };
      entry.oid = objectId(object);
      byOid.set(entry.oid, entry);
      remember(at, object);
      seen(entry.oid, object);
    }
    entries.push(entry);
    byOffset.set(at, entry);
    at = entry.end;
  }
  if (at !== trailer) throw new Error('pack has data after its last object');

  const resolve = async (entry: Entry, depth: number): Promise<GitObject> => {
    const hit = cache.get(entry.offset);
    if (hit) return hit;
    if (depth > 10_000) throw new Error('delta chain too long');
    const data = inflateSync(pack.subarray(entry.dataStart, entry.end), {
      maxOutputLength: Math.max(entry.size, 1),
    });
    const type = PACK_TYPES[entry.kind];
    let object: GitObject;
    if (type !== undefined) object = { type, content: data };
    else {
      const base = await baseOf(entry, depth);
      const limit = { bytes: bounds.maxObjectBytes, error: (size: number) => tooLarge(entry.offset, size) };
      object = { type: base.type, content: applyDelta(base.content, data, limit) };
    }
    remember(entry.offset, object);
    return object;
  };
  const baseOf = async (entry: Entry, depth: number): Promise<GitObject> => {
    if (entry.baseOffset !== undefined) {
      const base = byOffset.get(entry.baseOffset);
      if (base === undefined) throw new Error(`delta base at offset ${entry.baseOffset} is not an object`);
      return resolve(base, depth + 1);
    }
    const oid = entry.baseOid as string;
    const inPack = byOid.get(oid);
    if (inPack) return resolve(inPack, depth + 1);
    const outside = await external(oid);
    if (outside === undefined) throw new Error(`delta base ${oid} is missing`);
    return outside;
  };

  // A REF_DELTA may name a base that is itself a delta further on, or (in a thin pack) an object
  // outside the pack: resolve what the pack can, then one base from outside, and again.
  const ready = (entry: Entry): boolean => {
    let e: Entry | undefined = entry;
    for (let hops = 0; e !== undefined && e.oid === undefined && hops <= 10_000; hops++) {
      if (e.baseOid !== undefined) return byOid.has(e.baseOid);
      e = byOffset.get(e.baseOffset as number);
    }
    return true;
  };
  const settle = async (entry: Entry) => {
    const object = await resolve(entry, 0);
    entry.oid = objectId(object);
    byOid.set(entry.oid, entry);
    seen(entry.oid, object);
  };
  let pending = entries.filter((e) => e.oid === undefined);
  while (pending.length > 0) {
    const waiting: Entry[] = [];
    for (const entry of pending) {
      if (ready(entry)) await settle(entry);
      else waiting.push(entry);
    }
    if (waiting.length === pending.length) {
      const outside = await firstExternal(waiting, external);
      if (outside === undefined) throw new Error(`delta base ${waiting[0]?.baseOid ?? ''} is missing`);
      await settle(outside);
    }
    pending = waiting.filter((e) => e.oid === undefined);
  }
  return writeIndex(entries, crcs, pack.subarray(trailer));
}

/** A waiting REF_DELTA whose base exists outside the pack. */
async function firstExternal(
  waiting: Entry[],
  external: (oid: string) => Promise<GitObject | undefined>,
): Promise<Entry | undefined> {
  for (const entry of waiting) {
    if (entry.baseOid !== undefined && (await external(entry.baseOid)) !== undefined) return entry;
  }
  return undefined;
}

function readHeader(pack: Buffer, offset: number, trailer: number): Entry {
  return { offset, end: 0, ...readEntryHeader(pack, offset, trailer) };
}

/** Git's version 2 index: fanout, sorted ids, CRC-32s, offsets (64-bit ones in a table of their own). */
function writeIndex(entries: Entry[], crcs: Map<Entry, number>, packChecksum: Buffer): Buffer {
  const sorted = [...entries].sort((a, b) => ((a.oid as string) < (b.oid as string) ? -1 : 1));
  const n = sorted.length;
  const large = sorted.filter((e) => e.offset >= LARGE_OFFSET);
  const out = Buffer.alloc(8 + 1024 + n * 28 + large.length * 8 + 40);
  out.writeUInt32BE(0xff744f63, 0);
  out.writeUInt32BE(2, 4);
  const fanout = new Uint32Array(256);
  for (const e of sorted) {
    const first = Number.parseInt((e.oid as string).slice(0, 2), 16);
    fanout[first] = (fanout[first] ?? 0) + 1;
  }
  let total = 0;
  for (let i = 0; i < 256; i++) {
    total += fanout[i] as number;
    out.writeUInt32BE(total, 8 + i * 4);
  }
  const ids = 8 + 1024;
  const crcAt = ids + n * 20;
  const offsetAt = crcAt + n * 4;
  const largeAt = offsetAt + n * 4;
  let nextLarge = 0;
  sorted.forEach((e, i) => {
    out.write(e.oid as string, ids + i * 20, 'hex');
    out.writeUInt32BE(crcs.get(e) as number, crcAt + i * 4);
    if (e.offset < LARGE_OFFSET) out.writeUInt32BE(e.offset, offsetAt + i * 4);
    else {
      out.writeUInt32BE(LARGE_OFFSET + nextLarge, offsetAt + i * 4);
      out.writeBigUInt64BE(BigInt(e.offset), largeAt + nextLarge * 8);
      nextLarge++;
    }
  });
  const end = largeAt + large.length * 8;
  packChecksum.copy(out, end);
  createHash('sha1')
    .update(out.subarray(0, end + 20))
    .digest()
    .copy(out, end + 20);
  return out;
}
