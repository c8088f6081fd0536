import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { completeThinPack } from '../../../lib/git/completeThinPack';
import { indexPack } from '../../../lib/git/indexPack';
import { objectId } from '../../../lib/git/objectStore';
import { advertisedCapabilities, withThinPack } from '../../../lib/git/thinPack';

const pkt = (line: string) => `${(line.length + 4).toString(16).padStart(4, '0')}${line}`;
const none = async () => undefined;

describe('asking for a thin pack', () => {
  const want = pkt('want 1111111111111111111111111111111111111111 multi_ack_detailed ofs-delta agent=x\n');
  const rest = `${pkt('shallow 2222222222222222222222222222222222222222\n')}${pkt('deepen 1\n')}0000${pkt('have 3333333333333333333333333333333333333333\n')}${pkt('done\n')}`;

  it("adds thin-pack to the first want line's capabilities and leaves the rest as it was", () => {
    const body = withThinPack([Buffer.from(want + rest)]);
    expect(Buffer.concat(body ?? []).toString('latin1')).toBe(
      pkt('want 1111111111111111111111111111111111111111 multi_ack_detailed ofs-delta agent=x thin-pack\n') +
        rest,
    );
  });

  it('leaves a body it does not recognise, or one asking for thin packs already, as it was', () => {
    expect(
      withThinPack([Buffer.from(pkt('have 1111111111111111111111111111111111111111\n'))]),
    ).toBeUndefined();
    expect(withThinPack([Buffer.from(pkt('want 1111 ofs-delta thin-pack\n'))])).toBeUndefined();
    expect(
      withThinPack([Buffer.from(pkt('want 1111111111111111111111111111111111111111\n'))]),
    ).toBeUndefined();
    expect(withThinPack([Buffer.from('zzzzwant x y\n')])).toBeUndefined();
    expect(withThinPack([Buffer.from('00ffwant x y\n')])).toBeUndefined();
    expect(withThinPack('want x y')).toBeUndefined();
  });

  it('reads the capabilities of an advertisement once its first ref line is whole', () => {
    const head = `${pkt('# service=git-upload-pack\n')}0000${pkt('1111111111111111111111111111111111111111 HEAD\0multi_ack thin-pack side-band-64k shallow\n')}`;
    expect(advertisedCapabilities(Buffer.from(head, 'latin1'))).toEqual([
      'multi_ack',
      'thin-pack',
      'side-band-64k',
      'shallow',
    ]);
    expect(advertisedCapabilities(Buffer.from(head.slice(0, -10), 'latin1'))).toBeUndefined();
  });
});

/** A pack of one REF_DELTA: `target` as a delta of `base`, whose id it names (the base left out). */
function thinPack(base: Buffer, target: Buffer): Buffer {
  // src size, target size, copy the first 6 bytes, insert the rest of the target.
  const inserted = target.subarray(6);
  const delta = Buffer.from([base.length, target.length, 0x90, 6, inserted.length, ...inserted]);
  const baseId = objectId({ type: 'blob', content: base });
  const body = Buffer.concat([
    Buffer.from('PACK'),
    Buffer.from([0, 0, 0, 2, 0, 0, 0, 1]),
    Buffer.from([0x70 | delta.length]),
    Buffer.from(baseId, 'hex'),
    deflateSync(delta),
  ]);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

const idsOf = (idx: Buffer) => {
  const count = idx.readUInt32BE(8 + 255 * 4);
  return Array.from({ length: count }, (_, i) =>
    idx.toString('hex', 8 + 1024 + i * 20, 8 + 1024 + (i + 1) * 20),
  );
};

describe('completeThinPack', () => {
  const base = { type: 'blob' as const, content: Buffer.from('hello world') };
  const target = Buffer.from('hello there');

  it('appends the bases a thin pack names, so that it indexes on its own', async () => {
    const thin = thinPack(base.content, target);
    await expect(indexPack(thin, none)).rejects.toThrow(/delta base [0-9a-f]{40} is missing/);
    const completed = completeThinPack(thin, [base]);
    expect(completed.readUInt32BE(8)).toBe(2);
    const ids = idsOf(await indexPack(completed, none));
    expect(ids.sort()).toEqual([objectId(base), objectId({ type: 'blob', content: target })].sort());
  });

  it('writes sizes past one header byte as git does', async () => {
    const large = { type: 'blob' as const, content: Buffer.alloc(70_000, 0x61) };
    const completed = completeThinPack(thinPack(Buffer.from('hello world'), target), [base, large]);
    expect(idsOf(await indexPack(completed, none))).toContain(objectId(large));
  });

  it('returns a pack with no bases to add as it was', () => {
    const thin = thinPack(base.content, target);
    expect(completeThinPack(thin, [])).toBe(thin);
  });
});
