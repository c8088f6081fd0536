import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

// Powertools writes one JSON object per log line (with the request id and cold-start flag, which
// CloudWatch Logs Insights can query field by field) and metrics in the Embedded Metric Format:
// CloudWatch extracts them from the log stream, so recording a metric costs no API call, no IAM
// permission and no latency on the webhook's 10-second budget.

export interface Telemetry {
  logger: Logger;
  metrics: Metrics;
}

export const metricsNamespace = 'Lightkeeper';

/** Logger and metrics of one function; `POWERTOOLS_*` environment variables still override. */
export function createTelemetry(functionName: 'webhook' | 'reconcile' | 'sweep'): Telemetry {
  const serviceName = 'lightkeeper';
  return {
    logger: new Logger({ serviceName, persistentKeys: { function: functionName } }),
    metrics: new Metrics({
      namespace: metricsNamespace,
      serviceName,
      defaultDimensions: { function: functionName },
    }),
  };
}
