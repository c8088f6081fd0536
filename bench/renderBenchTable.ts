// Regenerates the benchmark table of docs/benchmarks.md from `npm run bench -- --json FILE` output,
// with the date and machine of the run; more files (other --objects) add the scale curve. Then the
// README's headline table from the same run, whose figures must appear in docs/benchmarks.md
// (test/unit/docs/benchmarkHeadline.test.ts).
//
//   npx tsx bench/renderBenchTable.ts bench-2000.json [bench-500.json bench-8000.json]
import { readFileSync } from 'node:fs';
import type { BenchResult } from './benchResult';
import { benchRows, formatMarkdown, headlineRows } from './benchTable';
import { scaleRows } from './scaleTable';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: renderBenchTable.ts RESULT.json [MORE.json ...]');
  process.exit(2);
}
const results = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as BenchResult);
const main = results.find((r) => r.objects === 2000) ?? results[0]!;
const { run } = main;

const out: string[] = [
  `${main.objects.toLocaleString('en')} generated objects, each engine's first apply on a local control plane of its own; measured ${run.date.slice(0, 10)} on ${run.machine} (${run.cpus} cores, load ${(run.loadAtStart ?? run.load)[0]?.toFixed(1)} at the start, ${run.load[0]?.toFixed(1)} at the end), lightkeeper at concurrency ${run.concurrency}, Flux's engine ${run.fluxEngine}; order: ${run.order.join(', ')}.`,
  '',
  formatMarkdown(benchRows(main)),
];
const runs = (key: string) => {
  const values = main.details[key] as number[] | undefined;
  return values && values.length > 0 ? values.map((v) => `${v.toFixed(2)} s`) : undefined;
};
const [kubectlRuns, limitRuns] = [runs('kubectlRunsS'), runs('limitRunsS')];
if (kubectlRuns || limitRuns) {
  out.push(
    '',
    `kubectl and the limit are each the mean of a run before and one after lightkeeper's: kubectl ${kubectlRuns?.join(' / ') ?? 'n/a'}, the limit ${limitRuns?.join(' / ') ?? 'n/a'}.`,
  );
}
// The scale curve of --scale (older JSON has none).
if ((main.scale ?? []).length > 0) {
  out.push('', `The scale curve (\`--scale\`, lightkeeper alone, each size in a fresh process):`, '');
  out.push(formatMarkdown(scaleRows(main.scale)));
}
const notes = Object.entries(main.notes);
if (notes.length > 0) out.push('', ...notes.map(([k, v]) => `- \`${k}\`: ${v}`));
if (results.length > 1) {
  out.push(
    '',
    '| objects | first apply: lightkeeper / Flux / kubectl / limit | no-op: lightkeeper / Flux | one change: lightkeeper / Flux | clone + read cold / warm / git | peak RSS | above the runtime per 1,000 objects | added per 1,000 objects since the row above |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  const f = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(2)} s`);
  const sorted = [...results].sort((a, b) => a.objects - b.objects);
  sorted.forEach((r, i) => {
    const prev = sorted[i - 1];
    // Linear memory means a constant slope between points of the curve.
    const slope =
      prev && r.peakRssMb !== null && prev.peakRssMb !== null
        ? `${(((r.peakRssMb - prev.peakRssMb) / (r.objects - prev.objects)) * 1000).toFixed(1)} MB`
        : '—';
    out.push(
      `| ${r.objects.toLocaleString('en')} | ${f(r.firstApply.lightkeeper)} / ${f(r.firstApply.flux)} / ${f(r.firstApply.kubectl)} / ${f(r.firstApply.limit)} | ${f(r.noop.lightkeeper)} / ${f(r.noop.flux)} | ${f(r.oneChange.lightkeeper)} / ${f(r.oneChange.flux)} | ${f(r.clone.cold)} / ${f(r.clone.warm)} / ${f(r.clone.git)} | ${r.peakRssMb ?? 'n/a'} MB | ${r.rssPer1000Mb?.toFixed(1) ?? 'n/a'} MB | ${slope} |`,
    );
  });
}
out.push(
  '',
  '<!-- README.md, section Benchmarks -->',
  '',
  `${main.objects.toLocaleString('en')} generated objects on local control planes (${run.cpus} shared cores, measured ${run.date.slice(0, 10)}; the full`,
  'table, method and history are in [docs/benchmarks.md](docs/benchmarks.md)):',
  '',
  formatMarkdown(headlineRows(main)),
);
console.log(out.join('\n'));
