import { MetricUnit } from '@aws-lambda-powertools/metrics';

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

import type { PushStatusOutcome } from './pushStatus';

export interface StatusTelemetry {
  logger: { warn: (message: string, extra: { outcome: PushStatusOutcome }) => void };
  metrics: { addMetric: (name: string, unit: Unit, value: number) => void };
}

/** Counts what GitHub took; logs and counts (`commitStatusFailed`) what it did not. Never throws. */
export function recordPushStatus(telemetry: StatusTelemetry, outcome: PushStatusOutcome): void {
  if (outcome.posted) telemetry.metrics.addMetric('commitStatusPosted', MetricUnit.Count, 1);
  else if ('problem' in outcome) {
    telemetry.logger.warn('commit status not posted', { outcome });
    telemetry.metrics.addMetric('commitStatusFailed', MetricUnit.Count, 1);
  }
}
