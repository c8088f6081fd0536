import { describe, expect, it } from 'vitest';
import { applyDelta } from '../../../lib/git/applyDelta';

const base = Buffer.from('hello world');
// Sizes 11 → 11; copy 5 bytes from offset 0; insert " there"; 0x91 = copy with one offset byte and one size byte.
const delta = (...bytes: number[]) => Buffer.from([11, 11, ...bytes]);

describe('applyDelta', () => {
  it('copies ranges of the base and inserts literal bytes', () => {
    const result = applyDelta(base, delta(0x90, 5, 6, ...Buffer.from(' there')));
    expect(result.toString()).toBe('hello there');
  });

  it('reads a copy size of 0 as 65536', () => {
    const large = Buffer.alloc(0x10000, 7);
    const result = applyDelta(large, Buffer.from([0x80, 0x80, 0x04, 0x80, 0x80, 0x04, 0x80]));
    expect(result.equals(large)).toBe(true);
  });

  it.each([
    ['a base of the wrong size', Buffer.from([12, 11, 0x90, 11]), /base of 12 bytes/],
    ['a copy beyond the base', delta(0x91, 8, 5, 0x90, 6), /copy out of range/],
    ['an insert beyond the delta', delta(0x90, 5, 9, 0x41), /insert out of range/],
    ['the reserved instruction 0', delta(0x90, 5, 0), /reserved instruction/],
    ['a result shorter than announced', delta(0x90, 5), /produced 5 of 11/],
    ['a truncated header', Buffer.from([0x80]), /header truncated/],
  ])('refuses %s', (_, bad, message) => {
    expect(() => applyDelta(base, bad)).toThrow(message);
  });
});
