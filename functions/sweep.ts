import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { loadSweepConfig } from '../lib/config/sweepConfig';
import { startReconcile } from '../lib/lambda/invokeReconcile';
import { kubeClientFrom } from '../lib/lambda/kubeClientCache';
import { lazyLambdaClient } from '../lib/lambda/lazyLambdaClient';
import { missingSources } from '../lib/lambda/missingSources';
import { reportSweep } from '../lib/lambda/reportSweep';
import { ssmMiddleware } from '../lib/lambda/ssmMiddleware';
import { ssmParameterError } from '../lib/lambda/ssmParameterError';
import { type SweepResult, startSweep, sweepScopeOf } from '../lib/lambda/startSweep';
import { createTelemetry } from '../lib/observability/telemetry';
import { ssmFetchData } from '../lib/settings/functionSettings';
import { listTracks } from '../lib/webhook/listTracks';

// Scheduled twice: every 5 minutes a drift reconcile of every enabled track; every minute
// (`{"scope": "unobserved"}`) a reconcile of only the tracks created or changed since their last
// reconcile. Both start reconciles asynchronously with bounded fan-out. It only lists tracks, as an
// identity of its own that may only get, list and watch them (infra/rbac/sweep.yaml): never the
// reconcile function's kubeconfig, whatever the environment holds.

const telemetry = createTelemetry('sweep');
const { logger, metrics } = telemetry;
const settings = loadSweepConfig();
const { deployment: config, sources } = settings;
const lambda = lazyLambdaClient(settings.lambda);
const fetchData = ssmFetchData(['sweepKubeconfig'], sources);
for (const missing of missingSources(['sweepKubeconfig'], sources)) logger.error(missing);

async function sweep(event: unknown, context: Context): Promise<SweepResult> {
  const scope = sweepScopeOf(event);
  logger.appendKeys({ scope });
  const tracks = await listTracks(
    await kubeClientFrom('sweepKubeconfig', context, sources, settings.requestPolicy),
    config,
  );
  const result = await startSweep(tracks, (e) => startReconcile(lambda, settings.reconcileFunction, e), {
    concurrency: settings.concurrency,
    scope,
    reason: scope === 'all' ? `sweep ${new Date().toISOString()}` : 'new or changed track',
  });
  reportSweep(result, telemetry);
  if (result.failed.length > 0 && result.started === 0)
    throw new Error('the sweep could not start any reconcile');
  return result;
}

const middleware = middy<unknown, SweepResult>().use(injectLambdaContext(logger)).use(logMetrics(metrics));
// Refetched after the cache expiry, so a rotated kubeconfig or token reaches warm containers.
const ssm = await ssmMiddleware(fetchData, settings.ssmCacheExpiryMs);
if (ssm) middleware.use(ssm);
// A parameter that cannot be read fails the invocation with its name, not middy's generic message.
middleware.onError(async (request) => {
  request.error = ssmParameterError(request.error) ?? request.error;
});

export const handler = middleware.handler(sweep);
