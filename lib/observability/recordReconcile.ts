import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import type { ReconcileSummary } from '../reconcile/types';
import { trackLabel } from '../track/trackRef';

/**
 * Objects per state, reconcile duration and, when this reconcile applied the very commit a push
 * announced, the latency from that commit to its application.
 */
export function recordReconcile(
  metrics: Metrics,
  summary: ReconcileSummary,
  event: ReconcileEvent,
  now = Date.now(),
) {
  const { counts } = summary;
  metrics.addMetadata('track', trackLabel(summary.track));
  metrics.addMetadata('commit', summary.commit ?? '');
  metrics.addMetric(`reconcile${summary.result}`, MetricUnit.Count, 1);
  metrics.addMetric('reconcileDuration', MetricUnit.Milliseconds, summary.durationMs);
  metrics.addMetric('objectsApplied', MetricUnit.Count, counts.applied);
  metrics.addMetric('objectsInSync', MetricUnit.Count, counts.inSync);
  metrics.addMetric('objectsIgnored', MetricUnit.Count, counts.ignored);
  metrics.addMetric('objectsFailed', MetricUnit.Count, counts.failed);
  metrics.addMetric('objectsConflicting', MetricUnit.Count, counts.conflicts);
  metrics.addMetric('objectsPruned', MetricUnit.Count, counts.pruned);
  metrics.addMetric('objectsUnavailable', MetricUnit.Count, counts.unavailable);
  metrics.addMetric('objectsDrifted', MetricUnit.Count, counts.drifted);
  const committedAt = Date.parse(event.push?.committedAt ?? '');
  if (
    summary.result === 'Succeeded' &&
    summary.commit === event.push?.after &&
    Number.isFinite(committedAt)
  ) {
    metrics.addMetric('commitToApplied', MetricUnit.Milliseconds, Math.max(0, now - committedAt));
  }
}
