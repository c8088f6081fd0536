import { describe, expect, it } from 'vitest';
import { lineDiff, unifiedDiff } from '../../../lib/diff/lineDiff';

describe('lineDiff', () => {
  it('keeps the longest common subsequence and marks the rest', () => {
    expect(lineDiff(['a', 'b', 'c', 'd'], ['a', 'c', 'x', 'd'])).toEqual([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: ' ', text: 'c' },
      { op: '+', text: 'x' },
      { op: ' ', text: 'd' },
    ]);
  });

  it('handles empty sides', () => {
    expect(lineDiff([], ['a'])).toEqual([{ op: '+', text: 'a' }]);
    expect(lineDiff(['a'], [])).toEqual([{ op: '-', text: 'a' }]);
  });
});

describe('unifiedDiff', () => {
  const labels = { before: 'a (live)', after: 'a (desired)' };

  it('is empty for equal texts', () => {
    expect(unifiedDiff('x\ny\n', 'x\ny\n', labels)).toBe('');
  });

  it('prints diff -u hunks with three lines of context', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'].join('\n');
    const after = ['1', '2', '3', '4', 'five', '6', '7', '8', '9', '10', '11', '12', '13'].join('\n');
    expect(unifiedDiff(before, after, labels)).toBe(
      [
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
        '@@ -10,3 +10,4 @@',
        ' 10',
        ' 11',
        ' 12',
        '+13',
        '',
      ].join('\n'),
    );
  });

  it('joins changes closer than twice the context into one hunk', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh';
    const after = 'A\nb\nc\nd\ne\nf\ng\nH';
    const hunks = unifiedDiff(before, after, labels)
      .split('\n')
      .filter((l) => l.startsWith('@@'));
    expect(hunks).toEqual(['@@ -1,8 +1,8 @@']);
  });
});
