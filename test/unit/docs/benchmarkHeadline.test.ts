import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDoc, repoRoot } from './docFiles';

/** The figures (`10.01 s`, `187 MB`, `0 writes`) in a Markdown section, by its heading. */
function sectionFigures(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) return [];
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/\b\d[\d,.]*(?: (?:s|ms|MB|writes)\b|×)/g)].map((m) => m[0]);
}

describe("the README's benchmark headline", () => {
  it('quotes only figures of the latest run in docs/benchmarks.md', () => {
    const figures = sectionFigures(readDoc(join(repoRoot, 'README.md')), 'Benchmarks');
    expect(figures.length).toBeGreaterThanOrEqual(8);
    const page = readDoc(join(repoRoot, 'docs/benchmarks.md'));
    const latest = page.slice(page.indexOf('Latest run'));
    expect(figures.filter((f) => !latest.includes(f))).toEqual([]);
  });

  it('finds a figure that is not there', () => {
    expect(sectionFigures('x\n## Benchmarks\n\n| a | 9.99 s |\n## Next\n7 s', 'Benchmarks')).toEqual([
      '9.99 s',
    ]);
  });
});
