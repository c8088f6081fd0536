// Pack files, entry headers and deltas built byte by byte as git lays them out, so tests can hand the
// readers what a hostile server would: sizes that lie, chains that expand, bases that are not there.
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { OFS_DELTA, REF_DELTA } from '../../lib/git/packEntryHeader';

/** A pack entry header: type and size in 7-bit groups (size's low 4 bits first), then an OFS distance. */
export function encodeHeader(kind: number, size: number, distance?: number): number[] {
  const bytes = [(kind << 4) | (size % 16)];
  for (let rest = Math.floor(size / 16); rest > 0; rest = Math.floor(rest / 128)) {
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) | 0x80;
    bytes.push(rest % 128);
  }
  if (distance === undefined) return bytes;
  const ofs = [distance % 128];
  for (let d = Math.floor(distance / 128); d > 0; d = Math.floor(d / 128)) {
    d -= 1;
    ofs.unshift(0x80 | (d % 128));
  }
  return [...bytes, ...ofs];
}

const varint = (n: number): number[] => {
  const bytes: number[] = [];
  do {
    bytes.push((n % 128) | (n >= 128 ? 0x80 : 0));
    n = Math.floor(n / 128);
  } while (n > 0);
  return bytes;
};

export type DeltaOp = { copy: [offset: number, size: number] } | { insert: Uint8Array };

/** A delta: base and result sizes as announced (true or not), then copy and insert instructions. */
export function encodeDelta(baseSize: number, resultSize: number, ops: readonly DeltaOp[]): Buffer {
  const bytes = [...varint(baseSize), ...varint(resultSize)];
  for (const op of ops) {
    if ('insert' in op) {
      for (let at = 0; at < op.insert.length; at += 127) {
        const part = op.insert.subarray(at, at + 127);
        bytes.push(part.length, ...part);
      }
      continue;
    }
    const [offset, size] = op.copy;
    let code = 0x80;
    const args: number[] = [];
    for (let i = 0; i < 4; i++)
      if ((offset >>> (8 * i)) & 0xff) {
        code |= 1 << i;
        args.push((offset >>> (8 * i)) & 0xff);
      }
    const encoded = size === 0x10000 ? 0 : size;
    for (let i = 0; i < 3; i++)
      if ((encoded >>> (8 * i)) & 0xff) {
        code |= 1 << (4 + i);
        args.push((encoded >>> (8 * i)) & 0xff);
      }
    bytes.push(code, ...args);
  }
  return Buffer.from(bytes);
}

export type PackEntry =
  | { kind: 1 | 2 | 3 | 4; content: Uint8Array }
  | { kind: typeof OFS_DELTA; base: number; delta: Uint8Array }
  | { kind: typeof REF_DELTA; baseOid: string; delta: Uint8Array };

/** A version 2 pack of `entries`; an OFS_DELTA's `base` is the index of an earlier entry. */
export function packOf(entries: readonly PackEntry[]): Buffer {
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(entries.length, 8);
  const parts: Buffer[] = [header];
  const offsets: number[] = [];
  let at = 12;
  for (const entry of entries) {
    offsets.push(at);
    const body = 'content' in entry ? entry.content : entry.delta;
    const distance = entry.kind === OFS_DELTA ? at - (offsets[entry.base] as number) : undefined;
    const head = Buffer.from(encodeHeader(entry.kind, body.length, distance));
    const ref = entry.kind === REF_DELTA ? Buffer.from(entry.baseOid, 'hex') : Buffer.alloc(0);
    const data = deflateSync(body);
    parts.push(head, ref, data);
    at += head.length + ref.length + data.length;
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}
