import type { ChildResult, ChildRun } from './childProtocol';

export const targets = { speedup: 2, noopFraction: 1 / 20, maxRssMb: 300 } as const;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  return rows.map((r) => r.map((cell, col) => cell.padEnd(widths[col]!)).join('  ')).join('\n');
}

/** The figures of one run, with the targets they are held to. */
export function formatReport(
  kubectlMs: number,
  runs: readonly ChildResult[],
  chosen: ChildResult,
  /** False when the child ran through tsx (profiling): its RSS is then the loader's, not ours. */
  rssComparable = true,
): string {
  const { first, noop } = chosen;
  const speedup = kubectlMs / first.wallMs;
  const noopOk = noop.wallMs <= first.wallMs * targets.noopFraction && noop.summary.writes.objects === 0;
  const rows = [
    ['measure', 'value', 'target', 'result'],
    ...runs.map((r) => [
      `first apply, lightkeeper (concurrency ${r.concurrency})`,
      seconds(r.first.wallMs),
      '',
      '',
    ]),
    ['first apply, kubectl apply --server-side', seconds(kubectlMs), '', ''],
    [
      `ratio kubectl / lightkeeper (concurrency ${chosen.concurrency})`,
      `${speedup.toFixed(2)}x`,
      `>= ${targets.speedup}x`,
      verdict(speedup >= targets.speedup),
    ],
    [
      'no-op reconcile of the same commit',
      `${seconds(noop.wallMs)} (1/${Math.round(first.wallMs / noop.wallMs)} of first apply)`,
      `<= 1/${1 / targets.noopFraction}, 0 writes`,
      verdict(noopOk),
    ],
    [
      'no-op writes (objects / status+events)',
      `${noop.summary.writes.objects} / ${noop.summary.writes.status}`,
      '0 object writes',
      verdict(noop.summary.writes.objects === 0),
    ],
    [
      'peak RSS of the lightkeeper process',
      `${chosen.maxRssMb} MB (runtime alone ${chosen.baselineRssMb} MB)`,
      `<= ${targets.maxRssMb} MB`,
      rssComparable ? verdict(chosen.maxRssMb <= targets.maxRssMb) : 'n/a (tsx)',
    ],
  ];
  return table(rows);
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
  return [
    `${label}: ${s.result}, ${seconds(run.wallMs)} (its own CPU ${seconds(run.cpuMs)}); ${JSON.stringify(s.actions)}; errors ${s.errors.length}`,
    `  phases: ${phases}`,
    `  requests: ${requests}`,
    `  writes: objects ${s.writes.objects}, status ${s.writes.status}`,
  ].join('\n');
}

/** CPU seconds per process for each measurement window. */
export function formatCpu(windows: ReadonlyArray<[string, Record<string, number>]>): string {
  const names = [...new Set(windows.flatMap(([, sample]) => Object.keys(sample)))];
  return table([
    ['', ...names],
    ...windows.map(([label, sample]) => [label, ...names.map((n) => seconds(sample[n] ?? 0))]),
  ]);
}
