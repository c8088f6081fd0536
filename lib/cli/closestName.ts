/** Edits (insert, delete, substitute) from `a` to `b`: Levenshtein's distance. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length] as number;
}

/**
 * The candidate a typo most likely meant: the nearest within a third of the name's length (at
 * least 2 edits), or one that contains it or is contained by it; undefined when none is close.
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const distance = editDistance(name, candidate);
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (!best) return undefined;
  const limit = Math.max(2, Math.floor(name.length / 3));
  if (best.distance <= limit) return best.candidate;
  return candidates.find((c) => c !== name && (c.includes(name) || name.includes(c)));
}
