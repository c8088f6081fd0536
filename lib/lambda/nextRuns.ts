import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import type { ReconcileSummary } from '../reconcile/types';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { behindDependencyEvents } from './behindDependencyEvents';
import { continuationEvent } from './continuationEvent';
import { dependentEvents } from './dependentEvents';
import { shardEvents } from './shardEvents';

/** What the reconcile function starts after a run, as data. */
export interface NextRuns {
  /** The same commit again: the run ran out of time. Must be queued (else the invocation fails). */
  continuation?: ReconcileEvent;
  /**
   * The dependency chain, so a push converges with no polling: the tracks that depend on one Ready
   * anew, and the dependencies a `Waiting` run found Ready but behind. Best effort: one that cannot
   * be queued is left to the sweep.
   */
  chained: ReconcileEvent[];
  /**
   * A sharded apply's shard runs, and the run that completes it once every shard succeeded. Must be
   * queued (else the invocation fails and Lambda retries it; the sweep's next run restarts a lost one).
   */
  shards: ReconcileEvent[];
}

/** The runs a finished reconcile starts next (pure). */
export function nextRuns(
  config: DeploymentConfig,
  event: ReconcileEvent,
  summary: ReconcileSummary,
): NextRuns {
  const continuation = continuationEvent(event, summary);
  return {
    ...(continuation ? { continuation } : {}),
    shards: shardEvents(event, summary),
    chained: [...dependentEvents(event, summary), ...behindDependencyEvents(config, event, summary)],
  };
}
