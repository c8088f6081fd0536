// The one table of `npm run bench`: a row per measure, lightkeeper / Flux engine / kubectl side by
// side, the target, and whether it was met (every ratio from the same run).
import { type BenchResult, targets } from './benchResult';

type Row = [
  measure: string,
  lightkeeper: string,
  flux: string,
  kubectl: string,
  target: string,
  result: string,
];

const s = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(2)} s`);
const ms = (v: number | null) => (v === null ? 'n/a' : `${Math.round(v)} ms`);
const mb = (v: number | null) => (v === null ? 'n/a' : `${Math.round(v)} MB`);
const x = (v: number) => `${v.toFixed(2)}×`;

/** `met (2.10×)`, `MISS (0.61×)`, or why it could not be judged. */
function verdict(ok: boolean | null, shown: string): string {
  if (ok === null) return 'not measured';
  return `${ok ? 'met' : 'MISS'} (${shown})`;
}

const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : a / b);
const atLeast = (v: number | null, min: number) => (v === null ? null : v >= min);
const atMost = (v: number | null, max: number) => (v === null ? null : v <= max);

function judge(v: number | null, ok: boolean | null): string {
  return verdict(ok, v === null ? '' : x(v));
}

/** ", lightkeeper's the median of 3 back to back: 0.31 / 0.28 / 0.30 s" when the child ran several no-ops. */
function noopRuns(r: BenchResult): string {
  const runs = r.details.lightkeeperNoopRunsS;
  if (!Array.isArray(runs) || runs.length < 2) return '';
  return `, lightkeeper's the median of ${runs.length} back to back: ${runs.map((v) => Number(v).toFixed(2)).join(' / ')} s`;
}

export function benchRows(r: BenchResult): Row[] {
  const { firstApply: f, noop, oneChange: one, pushToApplied: p, clone, coldStartMs: c } = r;
  const vsKubectl = ratio(f.kubectl, f.lightkeeper);
  const vsFlux = ratio(f.flux, f.lightkeeper);
  const vsLimit = ratio(f.limit, f.lightkeeper);
  const noopVsFlux = ratio(noop.flux, noop.lightkeeper);
  const oneVsFlux = ratio(one.flux, one.lightkeeper);
  const coldVsGit = ratio(clone.cold, clone.git);
  const warmVsCold = ratio(clone.warm, clone.cold);
  const sh = r.sharded;
  const shardedVsWhole = ratio(sh.sharded, sh.whole);
  const kustomizeVsKubectl = ratio(r.kustomizeRender.renderCpu, r.kustomizeRender.kubectlKustomizeCpu);
  const worstColdStart = [c.webhook, c.reconcile, c.sweep].some((v) => v === null)
    ? null
    : Math.max(c.webhook!, c.reconcile!, c.sweep!);
  const breakdown = (
    ['webhook', 'invoke', 'init', 'prepare', 'fetch', 'parse', 'list', 'apply', 'status'] as const
  )
    .map((k) => `${k === 'parse' ? 'read+parse' : k} ${p[k] === null ? 'n/a' : p[k]!.toFixed(2)}`)
    .join(', ');
  return [
    ['measure', 'lightkeeper', 'Flux engine', 'kubectl --server-side', 'target', 'result'],
    [
      'first apply',
      s(f.lightkeeper),
      s(f.flux),
      s(f.kubectl),
      `≥ ${targets.firstApplyVsKubectl}× kubectl's speed; ≥ ${targets.firstApplyVsFlux}× faster than Flux`,
      `${judge(vsKubectl, atLeast(vsKubectl, targets.firstApplyVsKubectl))} kubectl; ${judge(vsFlux, atLeast(vsFlux, targets.firstApplyVsFlux))} Flux`,
    ],
    [
      'the limit: one raw server-side apply per object, same concurrency, no tracking objects',
      s(f.limit),
      '—',
      '—',
      `lightkeeper's first apply ≥ ${targets.firstApplyVsLimit} of its speed`,
      judge(vsLimit, atLeast(vsLimit, targets.firstApplyVsLimit)),
    ],
    [
      `no-op of the same commit (time${noopRuns(r)}; object writes)`,
      `${s(noop.lightkeeper)}; ${noop.lightkeeperWrites ?? 'n/a'} writes`,
      `${s(noop.flux)}; ${r.details.fluxNoopWrites ?? 'n/a'} writes, ${r.details.fluxNoopDryRuns ?? 'n/a'} dry-runs`,
      '—',
      `0 writes; ≥ ${targets.noopVsFlux}× faster than Flux`,
      `${noop.lightkeeperWrites === null ? 'not measured' : noop.lightkeeperWrites === 0 ? 'met' : 'MISS'} (writes); ${judge(noopVsFlux, atLeast(noopVsFlux, targets.noopVsFlux))}`,
    ],
    [
      'one object changed (lightkeeper: whole reconcile of the new commit, warm process)',
      s(one.lightkeeper),
      s(one.flux),
      '—',
      `≥ ${targets.oneChangeVsFlux}× faster than Flux`,
      judge(oneVsFlux, atLeast(oneVsFlux, targets.oneChangeVsFlux)),
    ],
    [
      `push to applied, one file changed, cold function (${breakdown})`,
      s(p.total),
      '—',
      '—',
      `≤ ${targets.pushToAppliedS} s`,
      verdict(atMost(p.total, targets.pushToAppliedS), s(p.total)),
    ],
    [
      `clone + read, ${r.details.files ?? '?'} files: cold / warm (git: git clone --depth 1)`,
      `${s(clone.cold)} / ${s(clone.warm)}`,
      '—',
      `git ${s(clone.git)}`,
      `cold ≤ ${targets.cloneColdVsGit}× git; warm ≤ ${targets.cloneWarmVsCold}× cold`,
      `${judge(coldVsGit, atMost(coldVsGit, targets.cloneColdVsGit))} git; ${judge(warmVsCold, atMost(warmVsCold, targets.cloneWarmVsCold))} cold`,
    ],
    [
      'kustomize render over the repository (write tree + render + parse; render alone, CPU)',
      `${s(r.kustomizeRender.total)}; render ${s(r.kustomizeRender.render)}, CPU ${s(r.kustomizeRender.renderCpu)}`,
      '—',
      `kubectl kustomize CPU ${s(r.kustomizeRender.kubectlKustomizeCpu)}`,
      'render CPU within 1.2× kubectl kustomize (same engine)',
      judge(kustomizeVsKubectl, atMost(kustomizeVsKubectl, 1.2)),
    ],
    [
      `first apply through the reconcile function (serverless-offline): whole / sharded (${sh.shards ?? '?'} shards of ≤ ${sh.perShard ?? '?'}, threshold ${sh.threshold ?? '?'}, fan-out ${sh.fanout ?? '?'})`,
      `${s(sh.whole)} / ${s(sh.sharded)}`,
      '—',
      '—',
      `sharded ≤ ${targets.shardedVsWhole}× whole (2 cores: the API server is the bottleneck)`,
      judge(shardedVsWhole, atMost(shardedVsWhole, targets.shardedVsWhole)),
    ],
    [
      'peak RSS; RSS above the runtime per 1,000 objects',
      `${mb(r.peakRssMb)}; ${r.rssPer1000Mb === null ? 'n/a' : `${r.rssPer1000Mb.toFixed(1)} MB`}`,
      mb((r.details.fluxPeakRssMb as number | undefined) ?? null),
      '—',
      `≤ ${targets.peakRssMb} MB at 2,000; linear`,
      // The bound is for 2,000 objects; other sizes show the curve (renderBenchTable.ts: linear?).
      r.objects === 2000
        ? verdict(atMost(r.peakRssMb, targets.peakRssMb), mb(r.peakRssMb))
        : `scale curve point (the ${targets.peakRssMb} MB bound is for 2,000)`,
    ],
    [
      "cold start (import): webhook / reconcile / sweep; bare node -e ''",
      `${ms(c.webhook)} / ${ms(c.reconcile)} / ${ms(c.sweep)}; node ${ms(c.node)}`,
      '—',
      '—',
      `< ${targets.coldStartMs} ms each`,
      verdict(
        worstColdStart === null ? null : worstColdStart < targets.coldStartMs,
        `worst ${ms(worstColdStart)}`,
      ),
    ],
  ];
}

/** Aligned plain text for the terminal. */
export function formatText(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, col) => Math.min(60, Math.max(...rows.map((r) => r[col]!.length))));
  return rows.map((r) => r.map((cell, col) => cell.padEnd(widths[col]!)).join('  ')).join('\n');
}

/**
 * The README's headline: the first apply, no-op, one change, push to applied and memory, each figure
 * written exactly as the full table (docs/benchmarks.md) shows it.
 */
export function headlineRows(r: BenchResult): string[][] {
  const { firstApply: f, noop, oneChange: one } = r;
  return [
    ['measure', 'lightkeeper', 'Flux engine', 'kubectl --server-side'],
    ['first apply', s(f.lightkeeper), s(f.flux), s(f.kubectl)],
    [
      'no-op of the same commit',
      `${s(noop.lightkeeper)}; ${noop.lightkeeperWrites ?? 'n/a'} writes`,
      s(noop.flux),
      '—',
    ],
    ['one object changed', s(one.lightkeeper), s(one.flux), '—'],
    ['push to applied, cold function', s(r.pushToApplied.total), '—', '—'],
    ['peak RSS', mb(r.peakRssMb), mb((r.details.fluxPeakRssMb as number | undefined) ?? null), '—'],
  ];
}

/** A Markdown table for docs/benchmarks.md or the README. */
export function formatMarkdown(rows: readonly (readonly string[])[]): string {
  const [head, ...body] = rows;
  const line = (r: readonly string[]) => `| ${r.join(' | ')} |`;
  return [line(head!), line(head!.map(() => '---')), ...body.map(line)].join('\n');
}
