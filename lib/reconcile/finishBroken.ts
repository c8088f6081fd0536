import { finishReconcile, type ReconcileRun } from './finishReconcile';
import type { ReconcileSummary } from './types';

/**
 * Finishes the reconcile of a broken commit (it does not parse): nothing of it was applied and
 * nothing pruned, and the Applied condition says which commits the cluster still runs.
 */
export function finishBroken(
  run: ReconcileRun,
  reason: 'ParseFailed' | 'BuildFailed',
): Promise<ReconcileSummary> {
  run.broken = reason;
  const status = run.track.status;
  const runs = [
    status?.lastAppliedCommit ?? 'nothing of this track',
    ...(status?.partiallyAppliedCommit ? [`part of ${status.partiallyAppliedCommit}`] : []),
  ].join(' and ');
  const what = reason === 'ParseFailed' ? 'does not parse' : 'does not build';
  run.conditions.Applied = {
    status: 'False',
    reason,
    message: `nothing of ${run.commit} applied: it ${what}; the cluster still runs ${runs}`,
  };
  run.conditions.Pruned = {
    status: 'False',
    reason: 'PruneSkipped',
    message: `nothing pruned: ${run.commit} ${what}`,
  };
  return finishReconcile(run, 'failed');
}
