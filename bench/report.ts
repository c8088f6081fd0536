import type { ChildRun } from './childProtocol';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  return rows.map((r) => r.map((cell, col) => cell.padEnd(widths[col]!)).join('  ')).join('\n');
}

/** Where one reconcile's time and requests went. */
export function formatProfile(label: string, run: ChildRun): string {
  // 'parse' lasts until the apply starts: parsing, discovery, partition and listing the trackers.
  const phases = Object.entries(run.phasesMs)
    .map(([phase, ms]) => `${phase === 'parse' ? 'parse+plan' : phase} ${seconds(ms)}`)
    .join(', ');
  const requests = Object.entries(run.requests)
    .sort(([, a], [, b]) => b - a)
    .map(([kind, n]) => `${kind}: ${n}`)
    .join(', ');
  const s = run.summary;
  const rss = Object.entries(run.peakRssMbByPhase ?? {})
    .map(([phase, mb]) => `${phase === 'parse' ? 'parse+plan' : phase} ${mb} MB`)
    .join(', ');
  return [
    `${label}: ${s.result}, ${seconds(run.wallMs)} (its own CPU ${seconds(run.cpuMs)}); ${JSON.stringify(s.actions)}; errors ${s.errors.length}`,
    `  phases: ${phases}`,
    `  requests: ${requests}`,
    `  writes: objects ${s.writes.objects}, status ${s.writes.status}`,
    ...(rss ? [`  peak RSS while each phase ran: ${rss}`] : []),
  ].join('\n');
}

/** CPU seconds per process for each measurement window. */
export function formatCpu(windows: ReadonlyArray<[string, Record<string, number>]>): string {
  const names = [...new Set(windows.flatMap(([, sample]) => Object.keys(sample)))];
  return table([
    ['', ...names],
    ...windows.map(([label, sample]) => [
      label,
      ...names.map((n) => (sample[n] === undefined ? '—' : seconds(sample[n]))),
    ]),
  ]);
}
