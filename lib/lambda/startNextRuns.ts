import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Telemetry } from '../observability/telemetry';
import { startReconcile } from './invokeReconcile';
import type { LambdaClientSource } from './lazyLambdaClient';
import type { NextRuns } from './nextRuns';

/**
 * Queues the next runs on the reconcile function. A continuation that cannot be queued throws, so
 * Lambda retries the event (in-sync objects cost nothing); a link of the dependency chain that
 * cannot be queued is logged and left to the sweep: failing the invocation would not bring it back
 * (its retry finds the track Ready, or still waiting).
 */
export async function startNextRuns(
  lambda: LambdaClientSource,
  functionName: string,
  next: NextRuns,
  { logger, metrics }: Telemetry,
): Promise<void> {
  if (next.continuation) {
    await startReconcile(lambda, functionName, next.continuation);
    metrics.addMetric('reconcileContinued', MetricUnit.Count, 1);
  }
  await Promise.all(next.shards.map((event) => startReconcile(lambda, functionName, event)));
  if (next.shards.length > 0) metrics.addMetric('shardsInvoked', MetricUnit.Count, next.shards.length);
  for (const event of next.chained) {
    try {
      await startReconcile(lambda, functionName, event);
      metrics.addMetric('dependencyChainInvoked', MetricUnit.Count, 1);
    } catch (e) {
      logger.warn('could not invoke the next track of a dependency chain', {
        next: event.track,
        error: String(e),
      });
    }
  }
}
