import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import type { NextRuns } from './nextRuns';

/**
 * The next run this invocation takes on itself instead of invoking it (pure): the first run of a
 * sharded apply it would start — a shard, or the run that completes the apply — while at least
 * `minMs` of its time is left. Run here, it finds the commit's clone and parsed files already in
 * the process, where a new invocation would start, fetch and parse again. Continuations of a run
 * out of time and the dependency chain are always invoked.
 */
export function takeInline(
  next: NextRuns,
  remainingMs: number,
  minMs: number,
): { inline?: ReconcileEvent; rest: NextRuns } {
  const [first, ...others] = next.shards;
  if (first === undefined || remainingMs < minMs) return { rest: next };
  return { inline: first, rest: { ...next, shards: others } };
}
