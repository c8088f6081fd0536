import { structuredPatch } from 'diff';

/**
 * A unified diff (`diff -u` hunks with `context` lines around each change) under `---`/`+++`
 * headers, as `kubectl diff` prints it; empty when the texts are equal. The line diff is jsdiff's.
 */
export function unifiedDiff(
  before: string,
  after: string,
  labels: { before: string; after: string },
  context = 3,
): string {
  const { hunks } = structuredPatch(labels.before, labels.after, before, after, '', '', { context });
  if (hunks.length === 0) return '';
  const out = [`--- ${labels.before}`, `+++ ${labels.after}`];
  for (const h of hunks) {
    out.push(`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`, ...h.lines);
  }
  return `${out.join('\n')}\n`;
}

// An empty side is written as the line before it, as diff -u does (`-0,0` for a new file).
const range = (start: number, length: number) => `${length === 0 ? start - 1 : start},${length}`;
