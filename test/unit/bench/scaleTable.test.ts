import { describe, expect, it } from 'vitest';
import { emptyResult, type ScaleRow } from '../../../bench/benchResult';
import { scaleRows } from '../../../bench/scaleTable';

const row = (objects: number, firstApply: number, peakRssMb: number): ScaleRow => ({
  objects,
  firstApply,
  noop: 1,
  oneChange: 0.5,
  peakRssMb,
  noopWrites: 0,
});

describe('the scale curve', () => {
  it('is an empty list in the JSON until --scale asks for it', () => {
    expect(emptyResult(2000).scale).toEqual([]);
  });

  it('shows each size smallest first, its per-object cost against the smallest and the memory slope', () => {
    const rows = scaleRows([row(8000, 64, 400), row(2000, 14, 220)]);
    expect(rows[0]).toEqual([
      'objects',
      'first apply',
      'per object (× at 2,000)',
      'no-op; writes',
      'one change',
      'peak RSS',
      'MB per 1,000 more objects',
    ]);
    expect(rows[1]).toEqual(['2,000', '14.00 s', '7.00 ms (1.00×)', '1.00 s; 0', '0.50 s', '220 MB', '—']);
    // 64 s / 8,000 = 8 ms, 8/7 of the smallest's; (400 − 220) MB / 6,000 objects = 30 MB per 1,000.
    expect(rows[2]).toEqual([
      '8,000',
      '64.00 s',
      '8.00 ms (1.14×)',
      '1.00 s; 0',
      '0.50 s',
      '400 MB',
      '30.0 MB',
    ]);
  });

  it('says n/a for what was not measured', () => {
    const rows = scaleRows([{ ...row(500, 4, 100), oneChange: null, peakRssMb: null, noopWrites: null }]);
    expect(rows[1]).toEqual(['500', '4.00 s', '8.00 ms (1.00×)', '1.00 s; n/a', 'n/a', 'n/a', '—']);
  });
});
