import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import type { ReconcileSummary } from '../reconcile/types';
import { type DeploymentConfig, trackRefusal } from '../settings/deploymentModes';
import { trackLabel } from '../track/trackRef';

/**
 * The events that bring forward the dependencies a `Waiting` run found Ready but behind the commit
 * they are meant to be at (a push that touched only the dependent's subPath starts no reconcile of
 * the dependency). Once Ready at that commit, the dependency invokes this track again: the chain
 * goes on without polling. Only dependencies this deployment reconciles.
 */
export function behindDependencyEvents(
  config: DeploymentConfig,
  event: ReconcileEvent,
  summary: ReconcileSummary,
): ReconcileEvent[] {
  if (summary.result !== 'Waiting') return [];
  return (summary.waitingFor ?? [])
    .filter((wait) => wait.behind && trackRefusal(config, wait.track) === undefined)
    .map((wait) => ({
      track: wait.track,
      mode: 'apply',
      reason: `${trackLabel(summary.track)} waits for it (${event.reason})`.slice(0, 300),
    }));
}
