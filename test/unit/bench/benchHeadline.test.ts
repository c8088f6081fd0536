import { describe, expect, it } from 'vitest';
import { emptyResult } from '../../../bench/benchResult';
import { benchRows, headlineRows } from '../../../bench/benchTable';

describe("the README's benchmark headline", () => {
  it('shows each figure as the full table does, in the same row', () => {
    const r = emptyResult(2000);
    r.firstApply = { lightkeeper: 10.01, flux: 49.37, kubectl: 10.43, limit: 4.4 };
    r.noop = { lightkeeper: 0.56, flux: 38.51, lightkeeperWrites: 0 };
    r.oneChange = { lightkeeper: 0.63, flux: 38.53 };
    r.pushToApplied.total = 2.14;
    r.peakRssMb = 187;
    r.details.fluxPeakRssMb = 77;
    const full = benchRows(r);
    const [head, ...rows] = headlineRows(r);
    expect(head).toEqual(full[0]!.slice(0, 4));
    for (const row of rows) {
      const fullRow = full.find((cells) => cells[0].startsWith(row[0]!.split(',')[0]!));
      expect(fullRow, row[0]).toBeDefined();
      row.slice(1).forEach((cell, i) => {
        if (cell !== '—') expect(fullRow![i + 1], `${row[0]}: ${cell}`).toContain(cell);
      });
    }
    expect(rows.map((row) => row[1])).toEqual(['10.01 s', '0.56 s; 0 writes', '0.63 s', '2.14 s', '187 MB']);
  });
});
