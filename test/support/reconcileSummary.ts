import type { ReconcileSummary } from '../../lib/reconcile/types';

export type SummaryOverrides = Partial<Omit<ReconcileSummary, 'counts' | 'writes'>> & {
  counts?: Partial<ReconcileSummary['counts']>;
  writes?: Partial<ReconcileSummary['writes']>;
};

/**
 * A ReconcileSummary for tests: a Succeeded apply of GitTrack team-a/app in 1 ms that counted, wrote
 * and listed nothing, with `over` laid on top (`counts` and `writes` merged field by field).
 */
export function summaryOf(over: SummaryOverrides = {}): ReconcileSummary {
  const { counts, writes, ...rest } = over;
  return {
    track: { kind: 'GitTrack', namespace: 'team-a', name: 'app' },
    mode: 'apply',
    result: 'Succeeded',
    durationMs: 1,
    changes: [],
    ignored: [],
    errors: [],
    ...rest,
    counts: {
      discovered: 0,
      applied: 0,
      inSync: 0,
      ignored: 0,
      failed: 0,
      conflicts: 0,
      pruned: 0,
      unavailable: 0,
      drifted: 0,
      ...counts,
    },
    writes: { objects: 0, health: 0, status: 0, ...writes },
  };
}
