import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Telemetry } from '../observability/telemetry';
import { trackLabel } from '../track/trackRef';
import type { SweepResult } from './startSweep';

/** A sweep's metrics and log lines: what it started, skipped, backed off and could not start. */
export function reportSweep(result: SweepResult, { logger, metrics }: Telemetry): void {
  metrics.addMetric('sweepStarted', MetricUnit.Count, result.started);
  metrics.addMetric('sweepFailed', MetricUnit.Count, result.failed.length);
  metrics.addMetric('sweepBackedOff', MetricUnit.Count, result.backedOff.length);
  for (const f of result.failed)
    logger.error('reconcile not started', { track: trackLabel(f.track), error: f.error });
  for (const b of result.backedOff)
    logger.info('fetch backoff: not started', {
      track: trackLabel(b.track),
      failures: b.failures,
      retryAfter: b.retryAfter,
    });
  logger.info('sweep started', {
    started: result.started,
    skipped: result.skipped,
    backedOff: result.backedOff.length,
    failed: result.failed.length,
  });
}
