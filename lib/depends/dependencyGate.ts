import { finishReconcile, type ReconcileRun } from '../reconcile/finishReconcile';
import { gitDeadline } from '../reconcile/timeBudget';
import type { ReconcileSummary } from '../reconcile/types';
import { trackLabel } from '../track/trackRef';
import { checkDependencies } from './checkDependencies';

/**
 * Holds a run back until every track its spec.dependsOn names is Ready at its current commit:
 * the finished summary (`Waiting` with Ready reason DependencyNotReady, or `Failed` with
 * DependencyRefused / DependencyCycle) when it must not go on, undefined when it may. Nothing is
 * fetched, applied or pruned by a run held back; it does not wait in the function either — the
 * dependency invokes it once Ready (see withDependents).
 */
export async function dependencyGate(run: ReconcileRun): Promise<ReconcileSummary | undefined> {
  const { client, config } = run.deps;
  const check = await checkDependencies(client, config, run.track, gitDeadline(run.deadline));
  if (check.state === 'ready') return undefined;
  if (check.state === 'refused') {
    run.errors.push(check.message);
    run.dependencies = { reason: check.reason, message: check.message };
    return finishReconcile(run, 'failed');
  }
  const message = `waiting for ${check.waiting.map((w) => `${trackLabel(w.track)}: ${w.reason}`).join('; ')}`;
  run.dependencies = { reason: 'DependencyNotReady', message, waitingFor: check.waiting };
  return finishReconcile(run, 'waiting');
}
