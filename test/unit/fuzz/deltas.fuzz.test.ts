import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyDelta } from '../../../lib/git/applyDelta';
import { indexPack } from '../../../lib/git/indexPack';
import { objectId, openObjectStore } from '../../../lib/git/objectStore';
import { MAX_OBJECT_BYTES, OFS_DELTA, REF_DELTA } from '../../../lib/git/packEntryHeader';
import { expectClear, FUZZ_TEST_MS, fc, fuzzParameters, outcomeOf, withinMemory } from '../../support/fuzz';
import { temp } from '../../support/gitHistory';
import { type DeltaOp, encodeDelta, type PackEntry, packOf } from '../../support/packBytes';

const none = async () => undefined;

/** A base and instructions that stay within it (copy ranges inside the base, inserts of 1+ bytes). */
const baseAndOps = fc.uint8Array({ minLength: 1, maxLength: 512 }).chain((base) =>
  fc.record({
    base: fc.constant(base),
    ops: fc.array(
      fc.oneof(
        fc
          .nat({ max: base.length - 1 })
          .chain((offset) =>
            fc
              .nat({ max: base.length - offset - 1 })
              .map((extra): DeltaOp => ({ copy: [offset, extra + 1] })),
          ),
        fc.uint8Array({ minLength: 1, maxLength: 200 }).map((insert): DeltaOp => ({ insert })),
      ),
      { maxLength: 20 },
    ),
  }),
);

/** What `ops` make of `base`, computed plainly. */
const model = (base: Uint8Array, ops: readonly DeltaOp[]) =>
  Buffer.concat(
    ops.map((op) => ('insert' in op ? op.insert : base.subarray(op.copy[0], op.copy[0] + op.copy[1]))),
  );

describe('fuzz: deltas', { timeout: FUZZ_TEST_MS }, () => {
  it('applies any well-formed delta exactly', async () => {
    await fc.assert(
      fc.asyncProperty(baseAndOps, async ({ base, ops }) => {
        const expected = model(base, ops);
        const outcome = await outcomeOf(() =>
          applyDelta(base, encodeDelta(base.length, expected.length, ops)),
        );
        expect(outcome.ok && outcome.value.equals(expected)).toBe(true);
      }),
      fuzzParameters(2_000),
    );
  });

  it('refuses a delta that writes beyond, or short of, the size it announces', async () => {
    await fc.assert(
      fc.asyncProperty(baseAndOps, fc.integer({ min: -64, max: 64 }), async ({ base, ops }, skew) => {
        const actual = model(base, ops).length;
        fc.pre(skew !== 0 && actual + skew >= 0);
        const outcome = await outcomeOf(() => applyDelta(base, encodeDelta(base.length, actual + skew, ops)));
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expectClear(outcome.error, /out of range|produced \d+ of \d+ bytes/);
      }),
      fuzzParameters(2_000),
    );
  });

  it('ends any bytes in a result of the announced size or a clear error, reserving no more than an object may hold', async () => {
    const sizes = fc.oneof(fc.nat({ max: 1024 }), fc.integer({ min: MAX_OBJECT_BYTES - 4, max: 2 ** 52 }));
    await withinMemory(64, () =>
      fc.assert(
        fc.asyncProperty(
          fc.uint8Array({ maxLength: 64 }),
          sizes,
          fc.uint8Array({ maxLength: 96 }),
          fc.boolean(),
          async (base, announced, tail, honest) => {
            // Half the deltas carry a true base size, so the reader gets past the header.
            const delta = honest
              ? Buffer.concat([encodeDelta(base.length, announced, []), tail])
              : Buffer.from(tail);
            const outcome = await outcomeOf(() => applyDelta(base, delta));
            if (!outcome.ok) return expectClear(outcome.error);
            expect(outcome.value.length).toBeLessThanOrEqual(MAX_OBJECT_BYTES);
            expect(outcome.value.length).toBe(honest ? announced : outcome.value.length);
          },
        ),
        fuzzParameters(5_000),
      ),
    );
  });

  it('ends a pack of delta chains (expanding, unresolvable, truncated) in an index or a clear error', async () => {
    // Each delta doubles its base (or claims to grow it past any object's size); bases are earlier
    // entries, ids that name nothing, or an entry's own future id.
    const link = fc.record({
      ref: fc.boolean(),
      growth: fc.constantFrom(2, 3, 'beyond'),
      baseIndex: fc.nat(),
      randomOid: fc.option(fc.uint8Array({ minLength: 20, maxLength: 20 })),
    });
    await withinMemory(128, () =>
      fc.assert(
        fc.asyncProperty(
          fc.uint8Array({ minLength: 1, maxLength: 64 }),
          fc.array(link, { minLength: 1, maxLength: 24 }),
          fc.nat({ max: 40 }),
          async (seed, links, cut) => {
            const entries: PackEntry[] = [{ kind: 3, content: seed }];
            const seedId = objectId({ type: 'blob', content: Buffer.from(seed) });
            const sizes = [seed.length];
            for (const { ref, growth, baseIndex, randomOid } of links) {
              const base = baseIndex % entries.length;
              const baseSize = sizes[base] as number;
              // Real work stays under 1 MiB an object; past that, the delta claims more than an object may hold.
              const beyond = growth === 'beyond' || baseSize * (growth as number) > 1 << 20;
              const copies = beyond ? 1 : (growth as number);
              const ops: DeltaOp[] = Array.from({ length: copies }, () => ({ copy: [0, baseSize] }));
              const announced = beyond ? MAX_OBJECT_BYTES + 1 : baseSize * copies;
              const delta = encodeDelta(baseSize, announced, ops);
              sizes.push(announced);
              if (!ref) entries.push({ kind: OFS_DELTA, base, delta });
              else {
                // The seed blob's true id (resolvable), or one that names nothing.
                const baseOid = randomOid ? Buffer.from(randomOid).toString('hex') : seedId;
                entries.push({ kind: REF_DELTA, baseOid, delta });
              }
            }
            const pack = packOf(entries);
            const truncated = cut === 0 ? pack : pack.subarray(0, Math.max(0, pack.length - cut));
            const outcome = await outcomeOf(() => indexPack(truncated, none));
            if (!outcome.ok) expectClear(outcome.error);
          },
        ),
        fuzzParameters(1_000),
      ),
    );
  });

  it('ends a REF_DELTA whose pack index names it its own base (a loop) in a clear error', async () => {
    const clone = temp();
    const packDir = join(clone, '.git', 'objects', 'pack');
    mkdirSync(packDir, { recursive: true });
    const self = 'ab'.repeat(20);
    const pack = packOf([{ kind: REF_DELTA, baseOid: self, delta: encodeDelta(1, 1, [{ copy: [0, 1] }]) }]);
    writeFileSync(join(packDir, 'pack-loop.pack'), pack);
    writeFileSync(join(packDir, 'pack-loop.idx'), indexNaming(self, 12, pack));
    const objects = await openObjectStore(clone);
    const outcome = await outcomeOf(() => objects.find(self), 1_000);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expectClear(outcome.error, /delta chain longer than/);
  });
});

/** A v2 pack index with one entry: `oid` at `offset` (a lie when the entry there hashes otherwise). */
function indexNaming(oid: string, offset: number, pack: Buffer): Buffer {
  const idx = Buffer.alloc(8 + 1024 + 28 + 40);
  idx.writeUInt32BE(0xff744f63, 0);
  idx.writeUInt32BE(2, 4);
  const first = Number.parseInt(oid.slice(0, 2), 16);
  for (let i = first; i < 256; i++) idx.writeUInt32BE(1, 8 + i * 4);
  idx.write(oid, 8 + 1024, 'hex');
  idx.writeUInt32BE(offset, 8 + 1024 + 24);
  pack.copy(idx, 8 + 1024 + 28, pack.length - 20);
  return idx;
}
