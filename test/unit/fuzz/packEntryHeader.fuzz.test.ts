import { describe, expect, it } from 'vitest';
import { MAX_OBJECT_BYTES, OFS_DELTA, REF_DELTA, readEntryHeader } from '../../../lib/git/packEntryHeader';
import { expectClear, FUZZ_TEST_MS, fc, fuzzParameters, outcomeOf } from '../../support/fuzz';
import { encodeHeader } from '../../support/packBytes';

/** What any header the reader returns must be, whatever bytes it read. */
function expectSane(pack: Uint8Array, offset: number, end: number) {
  return async () => {
    const outcome = await outcomeOf(() => readEntryHeader(Buffer.from(pack), offset, end));
    if (!outcome.ok) return expectClear(outcome.error, new RegExp(`object at offset ${offset} `));
    const header = outcome.value;
    expect([1, 2, 3, 4, OFS_DELTA, REF_DELTA]).toContain(header.kind);
    expect(Number.isSafeInteger(header.size) && header.size >= 0 && header.size <= MAX_OBJECT_BYTES).toBe(
      true,
    );
    expect(header.dataStart).toBeGreaterThan(offset);
    expect(header.dataStart).toBeLessThanOrEqual(end);
    if (header.baseOffset !== undefined) {
      expect(header.baseOffset).toBeGreaterThanOrEqual(0);
      expect(header.baseOffset).toBeLessThan(offset);
    }
    if (header.baseOid !== undefined) expect(header.baseOid).toMatch(/^[0-9a-f]{40}$/);
  };
}

const packWithOffset = fc.uint8Array({ minLength: 1, maxLength: 96 }).chain((pack) =>
  fc.record({
    pack: fc.constant(pack),
    offset: fc.nat({ max: pack.length - 1 }),
    endCut: fc.nat({ max: 8 }),
  }),
);

describe('fuzz: pack entry headers', { timeout: FUZZ_TEST_MS }, () => {
  it('reads any bytes into a sane header or a clear error naming the offset', async () => {
    await fc.assert(
      fc.asyncProperty(packWithOffset, ({ pack, offset, endCut }) =>
        expectSane(pack, offset, Math.max(offset, pack.length - endCut))(),
      ),
      fuzzParameters(3_000),
    );
  });

  it('refuses oversized headers: sizes and distances in more groups than any object needs', async () => {
    const oversized = fc.record({
      kind: fc.constantFrom(1, 2, 3, 4, OFS_DELTA, REF_DELTA),
      groups: fc.array(fc.integer({ min: 0, max: 0x7f }), { minLength: 1, maxLength: 400 }),
      distanceGroups: fc.array(fc.integer({ min: 0, max: 0x7f }), { maxLength: 400 }),
      lead: fc.nat({ max: 64 }),
    });
    await fc.assert(
      fc.asyncProperty(oversized, ({ kind, groups, distanceGroups, lead }) => {
        const size = groups.map((g, i) => (i < groups.length - 1 ? g | 0x80 : g));
        const distance = distanceGroups.map((g, i) => (i < distanceGroups.length - 1 ? g | 0x80 : g));
        const pack = new Uint8Array([
          ...Array(lead).fill(0),
          (kind << 4) | 0x8f,
          ...size,
          ...distance,
          ...Array(20).fill(1),
        ]);
        return expectSane(pack, lead, pack.length)();
      }),
      fuzzParameters(5_000),
    );
  });

  it('reads back every header git writes, and refuses each of its truncations', async () => {
    const written = fc
      .record({
        kind: fc.constantFrom(1, 2, 3, 4, OFS_DELTA),
        size: fc.nat({ max: MAX_OBJECT_BYTES }),
        at: fc.integer({ min: 12, max: 64 * 1024 }),
      })
      .chain((h) => fc.record({ h: fc.constant(h), distance: fc.integer({ min: 1, max: h.at }) }));
    await fc.assert(
      fc.asyncProperty(written, async ({ h: { kind, size, at }, distance }) => {
        const bytes = encodeHeader(kind, size, kind === OFS_DELTA ? distance : undefined);
        const pack = Buffer.concat([Buffer.alloc(at), Buffer.from(bytes), Buffer.alloc(1)]);
        const read = readEntryHeader(pack, at, at + bytes.length + 1);
        expect(read).toMatchObject({ kind, size, dataStart: at + bytes.length });
        if (kind === OFS_DELTA) expect(read.baseOffset).toBe(at - distance);
        for (let cut = 0; cut < bytes.length; cut++) {
          const outcome = await outcomeOf(() => readEntryHeader(pack, at, at + cut));
          expect(outcome.ok).toBe(false);
          if (!outcome.ok) expectClear(outcome.error, /runs past the end of the pack/);
        }
      }),
      fuzzParameters(1_000),
    );
  });
});
