import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import ssm from '@middy/ssm';
import type { Context } from 'aws-lambda';
import { loadDeploymentConfig } from '../lib/config/deploymentModes';
import { gitLimitsFromEnv } from '../lib/git/gitLimits';
import { githubFromEnv } from '../lib/github/githubFromEnv';
import { clusterFailure } from '../lib/lambda/clusterFailure';
import { ssmCacheExpiryMs, ssmFetchData } from '../lib/lambda/functionSettings';
import { kubeClientFor } from '../lib/lambda/kubeClientCache';
import { lambdaClientFromEnv } from '../lib/lambda/lambdaClient';
import { nextRuns } from '../lib/lambda/nextRuns';
import { parseReconcileEvent } from '../lib/lambda/reconcileEvent';
import { type InvocationResult, reconcileInvocation } from '../lib/lambda/reconcileInvocation';
import { ssmParameterError } from '../lib/lambda/ssmParameterError';
import { startNextRuns } from '../lib/lambda/startNextRuns';
import { leaseNamespaceFrom } from '../lib/lease/leaseTarget';
import { createTelemetry } from '../lib/observability/telemetry';
import { timeBudgetMs } from '../lib/reconcile/timeBudget';

// One reconcile of one track under its Lease: config → client → run → start next → return.
const { logger, metrics } = createTelemetry('reconcile');
const config = loadDeploymentConfig();
const fetchData = ssmFetchData(['kubeconfig', 'githubToken']);
const leaseTtlSeconds = Number(process.env.LIGHTKEEPER_LEASE_TTL_SECONDS) || 60;
const reserveMs = Number(process.env.LIGHTKEEPER_RECONCILE_RESERVE_MS) || 120_000;
const lease = { namespace: leaseNamespaceFrom(), ttlSeconds: leaseTtlSeconds, reserveMs };
// A malformed LIGHTKEEPER_TIME_BUDGET_MS, _MARGIN_MS or LIGHTKEEPER_GIT_* limit fails at cold start.
timeBudgetMs(0);
gitLimitsFromEnv();
const lambda = lambdaClientFromEnv();
const github = githubFromEnv(() => logger.info('no GitHub token: commit statuses are not posted'));

async function reconcileTrack(event: unknown, context: Context): Promise<InvocationResult> {
  const request = parseReconcileEvent(event);
  const client = await kubeClientFor(context);
  const failuresBefore = client.stats.failures;
  const deps = { client, config, github: github(context), logger, metrics, lease };
  const out = await reconcileInvocation(deps, request, context);
  if (!('result' in out)) return out;
  await startNextRuns(lambda, context.functionName, nextRuns(config, request, out), { logger, metrics });
  // An unreachable API server is thrown so Lambda retries; a commit that fails on its merits is not.
  const failure = clusterFailure(out, client.stats.failures - failuresBefore);
  if (failure) throw failure;
  return out;
}

const middleware = middy<unknown, InvocationResult>()
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
// Refetched after the cache expiry, so a rotated kubeconfig or token reaches warm containers; a
// parameter that cannot be read fails the invocation with its name, not middy's generic message.
if (Object.keys(fetchData).length > 0)
  middleware.use(ssm({ fetchData, setToContext: true, cacheExpiry: ssmCacheExpiryMs() }));
middleware.onError(async (request) => {
  request.error = ssmParameterError(request.error) ?? request.error;
});
export const handler = middleware.handler(reconcileTrack);
