import { describe, expect, it } from 'vitest';
import { BoundedMemo } from '../../../lib/memo/boundedMemo';

describe('BoundedMemo', () => {
  it('computes an answer once, keeps falsy answers, and clears itself when full', () => {
    const memo = new BoundedMemo<string, boolean>(2);
    let computed = 0;
    const answer = (key: string, value: boolean) =>
      memo.get(key, () => {
        computed++;
        return value;
      });
    expect(answer('a', false)).toBe(false);
    expect(answer('a', true)).toBe(false);
    expect(computed).toBe(1);
    answer('b', true);
    expect(memo.size).toBe(2);
    // Full: the third key clears the memo before it is kept, so a is computed again.
    answer('c', true);
    expect(memo.size).toBe(1);
    expect(answer('a', true)).toBe(true);
    expect(computed).toBe(4);
  });
});
