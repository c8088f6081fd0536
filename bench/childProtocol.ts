// What the reconcile child reports to the benchmark driver on stdout.
import type { ReconcilePhase } from '../lib/reconcile/reconcileDeps';
import type { ReconcileSummary } from '../lib/reconcile/types';
import type { RequestCounts } from './requestCounter';

export interface ChildRun {
  summary: Omit<ReconcileSummary, 'changes'> & { actions: Record<string, number> };
  wallMs: number;
  /** The child's own CPU time during the run. */
  cpuMs: number;
  phasesMs: Partial<Record<ReconcilePhase, number>>;
  /** The highest resident set (MB) sampled every 25 ms while each phase ran (`start`: before the first). */
  peakRssMbByPhase?: Partial<Record<ReconcilePhase | 'start', number>>;
  requests: RequestCounts;
  /** Wall time spent waiting on each kind of request, summed (concurrent requests overlap). */
  requestMs?: RequestCounts;
}

export interface ChildResult {
  concurrency: number;
  /** Resident set after the imports, before any reconcile: the runtime's own share. */
  baselineRssMb: number;
  maxRssMb: number;
  first: ChildRun;
  /** The no-op of median wall time, when the driver asked for several (LK_BENCH_NOOPS). */
  noop: ChildRun;
  /** Every no-op's wall time, in the order run. */
  noopWallsMs?: number[];
  /** A reconcile of the next commit, which changed one object (when the driver asked for it). */
  change?: ChildRun;
}

/** Printed on its own line once the first apply is done, so the driver can sample CPU times. */
export const firstAppliedMarker = 'first-apply-done';

/** With LK_BENCH_PAUSE, the child then waits for this line on stdin before the no-ops. */
export const continueLine = 'continue';

/** The run of median wall time (of an even count, the faster of the middle two). */
export function medianRun(runs: readonly ChildRun[]): ChildRun {
  if (runs.length === 0) throw new Error('medianRun: no runs');
  const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
