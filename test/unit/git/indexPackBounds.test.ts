import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { indexPack } from '../../../lib/git/indexPack';

/** A one-object pack: a blob whose header announces `announced` bytes, holding `content` deflated. */
function onePack(announced: number, content: Buffer): Buffer {
  const header = [0x30 | (announced & 0x0f)];
  for (let rest = announced >> 4; rest > 0; rest >>= 7) {
    header[header.length - 1] = (header[header.length - 1] as number) | 0x80;
    header.push(rest & 0x7f);
  }
  const body = Buffer.concat([
    Buffer.from('PACK'),
    Buffer.from([0, 0, 0, 2, 0, 0, 0, 1]),
    Buffer.from(header),
    deflateSync(content),
  ]);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

const none = async () => undefined;

describe('indexPack bounds', () => {
  it('indexes a well-formed one-object pack', async () => {
    const idx = await indexPack(onePack(5, Buffer.from('hello')), none);
    const blobId = createHash('sha1').update('blob 5\0hello').digest('hex');
    expect(idx.toString('hex', 8 + 1024, 8 + 1024 + 20)).toBe(blobId);
  });

  it('stops inflating at the size an entry announces (a small pack never inflates to gigabytes)', async () => {
    await expect(indexPack(onePack(10, Buffer.alloc(1024 * 1024)), none)).rejects.toThrow(
      /larger than 10 bytes/,
    );
  });
});

describe('indexPack object cap', () => {
  const bounds = { maxObjectBytes: 1024 * 1024, subject: 'https://git.example/x' };

  it('refuses an object announced over the cap before inflating it (8 MiB from an 8 KiB deflate)', async () => {
    const started = Date.now();
    const error = await indexPack(
      onePack(8 * 1024 * 1024, Buffer.alloc(8 * 1024 * 1024)),
      none,
      undefined,
      bounds,
    ).catch((e) => e);
    expect(error).toMatchObject({ code: 'GitLimitError', limit: 'maxObjectBytes' });
    expect(error.message).toBe(
      'https://git.example/x sent an object of 8388608 bytes (pack offset 12): over the limit of 1 MiB (LIGHTKEEPER_GIT_MAX_OBJECT_BYTES)',
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('indexes an object at the cap', async () => {
    const content = Buffer.alloc(1024 * 1024, 'a');
    await expect(
      indexPack(onePack(content.length, content), none, undefined, bounds),
    ).resolves.toBeInstanceOf(Buffer);
  });
});
