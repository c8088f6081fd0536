// The scale curve of `npm run bench -- --scale 2000,8000,20000,50000` (issue 23): lightkeeper alone
// at each size, a fresh process and repository each, with the per-object cost of the first apply
// and the memory each 1,000 more objects add.
import type { ScaleRow } from './benchResult';

/** Issue 23's targets at 50,000 objects. */
export const scaleTargets = { objects: 50_000, peakRssMb: 1024, noopS: 20, oneChangeS: 5 } as const;

const s = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(2)} s`);

/** A header and a row per size, smallest first. */
export function scaleRows(rows: readonly ScaleRow[]): string[][] {
  const sorted = [...rows].sort((a, b) => a.objects - b.objects);
  const base = sorted[0];
  const perObject = (r: ScaleRow) => (r.firstApply === null ? null : (r.firstApply * 1000) / r.objects);
  return [
    [
      'objects',
      'first apply',
      `per object (× at ${base?.objects.toLocaleString('en') ?? '—'})`,
      'no-op; writes',
      'one change',
      'peak RSS',
      'MB per 1,000 more objects',
    ],
    ...sorted.map((r, i) => {
      const prev = sorted[i - 1];
      const ms = perObject(r);
      const baseMs = base ? perObject(base) : null;
      const ratio = ms !== null && baseMs ? ` (${(ms / baseMs).toFixed(2)}×)` : '';
      // Linear memory is a constant slope between points of the curve.
      const slope =
        prev && r.peakRssMb !== null && prev.peakRssMb !== null
          ? `${(((r.peakRssMb - prev.peakRssMb) / (r.objects - prev.objects)) * 1000).toFixed(1)} MB`
          : '—';
      return [
        r.objects.toLocaleString('en'),
        s(r.firstApply),
        ms === null ? 'n/a' : `${ms.toFixed(2)} ms${ratio}`,
        `${s(r.noop)}; ${r.noopWrites ?? 'n/a'}`,
        s(r.oneChange),
        r.peakRssMb === null ? 'n/a' : `${r.peakRssMb} MB`,
        slope,
      ];
    }),
  ];
}
