/**
 * A per-process memo of at most `limit` answers, cleared whole when full: memory stays bounded by
 * the work in flight, not by the repository, and a warm function still skips work it did before.
 * Clearing (not evicting the oldest) keeps it a plain Map: a run larger than the limit recomputes,
 * which is what it would do with no memo at all.
 */
export class BoundedMemo<K, V> {
  private readonly answers = new Map<K, V>();

  constructor(readonly limit: number) {}

  /** The answer for `key`, computed and kept on first use. */
  get(key: K, compute: () => V): V {
    const known = this.answers.get(key);
    if (known !== undefined || this.answers.has(key)) return known as V;
    if (this.answers.size >= this.limit) this.answers.clear();
    const answer = compute();
    this.answers.set(key, answer);
    return answer;
  }

  get size(): number {
    return this.answers.size;
  }

  clear(): void {
    this.answers.clear();
  }
}
