import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { loadReconcileConfig } from '../lib/config/reconcileConfig';
import { githubFromEnv } from '../lib/github/githubFromEnv';
import { kubeClientFor } from '../lib/lambda/kubeClientCache';
import { lazyLambdaClient } from '../lib/lambda/lazyLambdaClient';
import { reconcileAndStartNext } from '../lib/lambda/reconcileAndStartNext';
import type { InvocationResult } from '../lib/lambda/reconcileInvocation';
import { ssmMiddleware } from '../lib/lambda/ssmMiddleware';
import { ssmParameterError } from '../lib/lambda/ssmParameterError';
import { createTelemetry } from '../lib/observability/telemetry';
import { parseReconcileEvent } from '../lib/reconcile/reconcileEvent';
import { ssmFetchData } from '../lib/settings/functionSettings';

// One reconcile of one track under its Lease: config → client → run → start next → return.
const { logger, metrics } = createTelemetry('reconcile');
const settings = loadReconcileConfig();
const { deployment: config, sources } = settings;
const fetchData = ssmFetchData(['kubeconfig', 'githubToken'], sources);
const lambda = lazyLambdaClient(settings.lambda);
const github = githubFromEnv(() => logger.info('no GitHub token: commit statuses are not posted'), sources);

async function reconcileTrack(event: unknown, context: Context): Promise<InvocationResult> {
  const request = parseReconcileEvent(event);
  const client = await kubeClientFor(context, sources, settings.requestPolicy);
  const { functionName } = context;
  const { inlineMinMs } = settings;
  const deps = {
    client,
    config,
    github: await github(context),
    logger,
    metrics,
    settings,
    lambda,
    functionName,
    inlineMinMs,
  };
  return reconcileAndStartNext(deps, request, context);
}

const middleware = middy<unknown, InvocationResult>()
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
// Refetched after the cache expiry, so a rotated kubeconfig or token reaches warm containers; a
// parameter that cannot be read fails the invocation with its name, not middy's generic message.
const ssm = await ssmMiddleware(fetchData, settings.ssmCacheExpiryMs);
if (ssm) middleware.use(ssm);
middleware.onError(async (request) => {
  request.error = ssmParameterError(request.error) ?? request.error;
});
export const handler = middleware.handler(reconcileTrack);
