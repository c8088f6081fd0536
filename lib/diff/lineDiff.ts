/** One line of a line diff: kept, removed (`-`) or added (`+`). */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/**
 * The shortest edit between two line lists, by longest common subsequence. Manifests are small
 * (hundreds of lines), so the quadratic table is cheap; no diff library is installed.
 */
export function lineDiff(before: readonly string[], after: readonly string[]): DiffLine[] {
  const n = before.length;
  const m = after.length;
  // lcs[i * (m + 1) + j]: length of the LCS of before[i..] and after[j..].
  const lcs = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => lcs[i * (m + 1) + j] as number;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] =
        before[i] === after[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (before[i] === after[j]) {
      out.push({ op: ' ', text: before[i++] as string });
      j++;
    } else if (at(i + 1, j) >= at(i, j + 1)) out.push({ op: '-', text: before[i++] as string });
    else out.push({ op: '+', text: after[j++] as string });
  }
  while (i < n) out.push({ op: '-', text: before[i++] as string });
  while (j < m) out.push({ op: '+', text: after[j++] as string });
  return out;
}

/**
 * A unified diff (`diff -u` hunks with `context` lines around each change) under `---`/`+++`
 * headers; empty when the texts are equal.
 */
export function unifiedDiff(
  before: string,
  after: string,
  labels: { before: string; after: string },
  context = 3,
): string {
  const lines = lineDiff(splitLines(before), splitLines(after));
  if (lines.every((l) => l.op === ' ')) return '';
  const out = [`--- ${labels.before}`, `+++ ${labels.after}`];
  const changed = lines.flatMap((l, k) => (l.op === ' ' ? [] : [k]));
  let k = 0;
  while (k < changed.length) {
    const first = changed[k] as number;
    let end = first;
    // Changes closer than twice the context share one hunk.
    while (k + 1 < changed.length && (changed[k + 1] as number) - end - 1 <= 2 * context)
      end = changed[++k] as number;
    k++;
    const start = Math.max(0, first - context);
    const hunk = lines.slice(start, Math.min(lines.length, end + context + 1));
    const oldStart = lines.slice(0, start).filter((l) => l.op !== '+').length;
    const newStart = lines.slice(0, start).filter((l) => l.op !== '-').length;
    const oldLen = hunk.filter((l) => l.op !== '+').length;
    const newLen = hunk.filter((l) => l.op !== '-').length;
    out.push(`@@ -${range(oldStart, oldLen)} +${range(newStart, newLen)} @@`);
    for (const l of hunk) out.push(`${l.op}${l.text}`);
  }
  return `${out.join('\n')}\n`;
}

const range = (start: number, length: number) => `${length === 0 ? start : start + 1},${length}`;

const splitLines = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));
