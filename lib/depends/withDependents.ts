import { isInfrastructureError, isKubeApiError } from '../errors';
import type { ReconcileRun } from '../reconcile/finishReconcile';
import type { ReconcileSummary } from '../reconcile/types';
import { becameReady } from './becameReady';
import { listDependents } from './listDependents';

/**
 * Adds to a finished summary the tracks to reconcile next: those whose spec.dependsOn names this
 * track, when this run made it Ready (lib/depends/becameReady). Listed after the status is written,
 * so a dependent that checks before sees the old status and is invoked, and one that checks after
 * sees it Ready. A failure to list them never fails the reconcile: the sweep reconciles them.
 */
export async function withDependents(
  run: ReconcileRun,
  summary: ReconcileSummary,
): Promise<ReconcileSummary> {
  if (!becameReady(run.track, summary)) return summary;
  try {
    const dependents = await listDependents(run.deps.client, run.deps.config, run.track);
    return dependents.length > 0 ? { ...summary, dependents } : summary;
  } catch (e) {
    if (!isKubeApiError(e) && !isInfrastructureError(e)) throw e;
    return summary;
  }
}
