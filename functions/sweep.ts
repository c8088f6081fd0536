import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import ssm from '@middy/ssm';
import type { Context } from 'aws-lambda';
import { loadDeploymentConfig } from '../lib/config/deploymentModes';
import { ssmFetchData } from '../lib/lambda/functionSettings';
import { startReconcile } from '../lib/lambda/invokeReconcile';
import { kubeClientFor } from '../lib/lambda/kubeClientCache';
import { lambdaClientFromEnv } from '../lib/lambda/lambdaClient';
import { type SweepResult, startSweep } from '../lib/lambda/startSweep';
import { createTelemetry } from '../lib/observability/telemetry';
import { listTracks } from '../lib/webhook/listTracks';
import { formatTrack } from '../lib/webhook/track';

// Scheduled: a drift reconcile of every enabled track, started asynchronously with bounded fan-out.

const { logger, metrics } = createTelemetry('sweep');
const config = loadDeploymentConfig();
const lambda = lambdaClientFromEnv();
const reconcileFunction = process.env.RECONCILE_FUNCTION_NAME ?? 'lightkeeper-dev-reconcile';
const concurrency = Number(process.env.SWEEP_CONCURRENCY) || 10;
const fetchData = ssmFetchData(['kubeconfig']);

async function sweep(_event: unknown, context: Context): Promise<SweepResult> {
  const tracks = await listTracks(await kubeClientFor(context), config);
  const result = await startSweep(tracks, (event) => startReconcile(lambda, reconcileFunction, event), {
    concurrency,
    reason: `sweep ${new Date().toISOString()}`,
  });
  metrics.addMetric('sweepStarted', MetricUnit.Count, result.started);
  metrics.addMetric('sweepFailed', MetricUnit.Count, result.failed.length);
  for (const f of result.failed)
    logger.error('reconcile not started', { track: formatTrack(f.track), error: f.error });
  logger.info('sweep started', {
    started: result.started,
    skipped: result.skipped,
    failed: result.failed.length,
  });
  if (result.failed.length > 0 && result.started === 0)
    throw new Error('the sweep could not start any reconcile');
  return result;
}

const middleware = middy<unknown, SweepResult>().use(injectLambdaContext(logger)).use(logMetrics(metrics));
if (Object.keys(fetchData).length > 0) middleware.use(ssm({ fetchData, setToContext: true }));

export const handler = middleware.handler(sweep);
