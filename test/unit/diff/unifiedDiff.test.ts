import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../lib/diff/unifiedDiff';

const labels = { before: 'a (live)', after: 'a (desired)' };
const text = (...lines: string[]) => `${lines.join('\n')}\n`;

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('x\ny\n', 'x\ny\n', labels)).toBe('');
  });

  it('prints diff -u hunks with three lines of context', () => {
    const lines = Array.from({ length: 20 }, (_, i) => String(i + 1));
    const after = [...lines];
    after[4] = 'five';
    after.push('21');
    expect(unifiedDiff(text(...lines), text(...after), labels)).toBe(
      text(
        '--- a (live)',
        '+++ a (desired)',
        '@@ -2,7 +2,7 @@',
        ' 2',
        ' 3',
        ' 4',
        '-5',
        '+five',
        ' 6',
        ' 7',
        ' 8',
        '@@ -18,3 +18,4 @@',
        ' 18',
        ' 19',
        ' 20',
        '+21',
      ),
    );
  });

  it('joins changes closer than twice the context into one hunk', () => {
    const hunks = unifiedDiff(
      text('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
      text('A', 'b', 'c', 'd', 'e', 'f', 'g', 'H'),
      labels,
    )
      .split('\n')
      .filter((l) => l.startsWith('@@'));
    expect(hunks).toEqual(['@@ -1,8 +1,8 @@']);
  });

  it('writes an empty side as diff -u does', () => {
    expect(unifiedDiff('', text('x', 'y'), labels)).toBe(
      text('--- a (live)', '+++ a (desired)', '@@ -0,0 +1,2 @@', '+x', '+y'),
    );
    expect(unifiedDiff(text('x'), '', labels)).toBe(
      text('--- a (live)', '+++ a (desired)', '@@ -1,1 +0,0 @@', '-x'),
    );
  });
});
