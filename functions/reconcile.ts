import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import ssm from '@middy/ssm';
import type { Context } from 'aws-lambda';
import { loadDeploymentConfig } from '../lib/config/deploymentModes';
import { gitLimitsFromEnv } from '../lib/git/gitLimits';
import { reportAwaitedHealth } from '../lib/github/awaitedHealthStatus';
import { githubFromEnv } from '../lib/github/githubFromEnv';
import type { PushStatusOutcome } from '../lib/github/pushStatus';
import { recordPushStatus } from '../lib/github/recordPushStatus';
import { type PushStatusDeps, reportPushStatus } from '../lib/github/reportPushStatus';
import { behindDependencyEvents } from '../lib/lambda/behindDependencyEvents';
import { clusterFailure } from '../lib/lambda/clusterFailure';
import { continuationEvent } from '../lib/lambda/continuationEvent';
import { dependentEvents } from '../lib/lambda/dependentEvents';
import { ssmCacheExpiryMs, ssmFetchData } from '../lib/lambda/functionSettings';
import { startReconcile } from '../lib/lambda/invokeReconcile';
import { kubeClientFor } from '../lib/lambda/kubeClientCache';
import { lambdaClientFromEnv } from '../lib/lambda/lambdaClient';
import { parseReconcileEvent } from '../lib/lambda/reconcileEvent';
import { ssmParameterError } from '../lib/lambda/ssmParameterError';
import { type CoalescedReconcile, isCoalesced } from '../lib/lease/coalesced';
import { leaseNamespaceFrom } from '../lib/lease/leaseTarget';
import { reconcileUnderLease } from '../lib/lease/reconcileUnderLease';
import { isServed, type ServedReconcile } from '../lib/lease/served';
import { recordReconcile } from '../lib/observability/recordReconcile';
import { createTelemetry } from '../lib/observability/telemetry';
import { deliveryServed, servedState } from '../lib/reconcile/deliveryServed';
import { driftBackedOff } from '../lib/reconcile/fetchBackoff';
import { timeBudgetMs } from '../lib/reconcile/timeBudget';
import type { ReconcileSummary } from '../lib/reconcile/types';
import { loadTrack } from '../lib/track/loadTrack';
import { trackLabel } from '../lib/track/trackRef';

// One reconcile of one track, serialized per track by a Lease. Invoked asynchronously by the
// webhook and the sweep, synchronously by replays (which read the returned summary). A request for
// the head that finds the track running and already waited on answers `coalesced` at once.

const { logger, metrics } = createTelemetry('reconcile');
const config = loadDeploymentConfig();
const fetchData = ssmFetchData(['kubeconfig', 'githubToken']);
const leaseNamespace = leaseNamespaceFrom();
const leaseTtlSeconds = Number(process.env.LIGHTKEEPER_LEASE_TTL_SECONDS) || 60;
// Time kept back from the wait for the reconcile itself: a waiter that gives up fails its
// invocation, and Lambda's retry of an asynchronous event tries again later.
const reserveMs = Number(process.env.LIGHTKEEPER_RECONCILE_RESERVE_MS) || 120_000;
timeBudgetMs(0); // a malformed LIGHTKEEPER_TIME_BUDGET_MS or _MARGIN_MS fails at cold start
gitLimitsFromEnv(); // so does a malformed LIGHTKEEPER_GIT_* limit
const lambda = lambdaClientFromEnv();
const github = githubFromEnv(() => logger.info('no GitHub token: commit statuses are not posted'));

// A status GitHub did not take is logged and counted; it never fails the reconcile.
const recordStatus = (outcome: PushStatusOutcome) => recordPushStatus({ logger, metrics }, outcome);

async function reconcileTrack(
  event: unknown,
  context: Context,
): Promise<ReconcileSummary | CoalescedReconcile | ServedReconcile> {
  const request = parseReconcileEvent(event);
  const track = trackLabel(request.track);
  logger.appendKeys({ track, mode: request.mode, reason: request.reason });
  const client = await kubeClientFor(context);
  const remaining = context.getRemainingTimeInMillis?.() ?? 900_000;
  const waitUntil = Date.now() + Math.max(remaining - reserveMs, remaining / 2);
  // No commit pinned unless a replay asked: a waiter reconciles the head as it is when it runs.
  // A pinned replay is never coalesced: it waits its own turn (see reconcileUnderLease).
  const failuresBefore = client.stats.failures;
  // A push's commit shows `pending` once this invocation fetched it as the track (a coalesced run,
  // or one that could not read the repository, posts nothing), on the repository it fetched. Its
  // reads of the track are counted apart: they never make the reconcile a cluster failure.
  const statusDeps: PushStatusDeps = { github: github(context), kube: client.countedApart() };
  const onFetched = ({ repository }: { repository: string }) => {
    statusDeps.repository = Promise.resolve(repository);
    pending = reportPushStatus(statusDeps, request).then(recordStatus);
  };
  let pending: Promise<unknown> | undefined;
  // The budget is read when the engine starts, after any wait for the lease.
  const budget = () => timeBudgetMs(context.getRemainingTimeInMillis?.() ?? 900_000);
  // A push's delivery is served once: a copy that waited for the lease finds the run before it.
  const push = request.push;
  // A drift check that waited finds the run before it backed the track off (a failed fetch).
  let waited = false;
  const alreadyServed =
    push && request.commit === undefined && request.mode === 'apply'
      ? async () => deliveryServed(servedState(await loadTrack(client, request.track)), push)
      : request.mode === 'drift'
        ? async () =>
            waited ? driftBackedOff((await loadTrack(client, request.track)).status, new Date()) : undefined
        : undefined;
  const out = await reconcileUnderLease({ client, config, timeBudgetMs: budget, onFetched }, request, {
    alreadyServed,
    namespace: leaseNamespace,
    holder: context.awsRequestId,
    ttlSeconds: leaseTtlSeconds,
    waitUntil,
    onWait: (heldBy) => {
      waited = true;
      logger.info('waiting for the track lease', { heldBy });
    },
    onRenewalProblem: (problem) => logger.warn('track lease renewal failed', { problem }),
  });
  if (isCoalesced(out)) {
    metrics.addMetric('reconcileCoalesced', MetricUnit.Count, 1);
    logger.info('coalesced', { heldBy: out.heldBy, waiter: out.waiter });
    return out;
  }
  if (isServed(out)) {
    metrics.addMetric('reconcileServedAlready', MetricUnit.Count, 1);
    logger.info('served already', { why: out.reason });
    return out;
  }
  recordReconcile(metrics, out, request);
  await pending;
  recordStatus(await reportPushStatus(statusDeps, request, out));
  // A pushed commit still progressing is recorded on the track; a later run that sees it settle posts.
  recordStatus(await reportAwaitedHealth(statusDeps, request, out));
  const { changes, ...brief } = out;
  const shown = changes.filter((c) => c.action !== 'unchanged').slice(0, 50);
  // Aborted: the track lease was lost, or this continuation was superseded (errors say which).
  if (out.result === 'Aborted') logger.warn('reconcile stopped', { ...brief, changes: shown });
  else logger.info('reconciled', { ...brief, changes: shown });
  // Out of time before every object was applied: this function goes on with the same commit. A
  // failure to queue it fails this invocation, so Lambda retries the event (in-sync objects cost nothing).
  const next = continuationEvent(request, out);
  if (next) {
    await startReconcile(lambda, context.functionName, next);
    metrics.addMetric('reconcileContinued', MetricUnit.Count, 1);
  }
  // The dependency chain (lib/depends), so a push converges with no polling: a track Ready anew
  // starts the tracks that depend on it; a track held back by a dependency that is Ready but behind
  // its reference starts that one, which invokes this track again once caught up. One that could
  // not be queued is logged and left to the sweep: failing this invocation would not bring it back
  // (its retry finds the track Ready, or still waiting).
  const chained = [...dependentEvents(request, out), ...behindDependencyEvents(config, request, out)];
  for (const next of chained) {
    try {
      await startReconcile(lambda, context.functionName, next);
      metrics.addMetric('dependencyChainInvoked', MetricUnit.Count, 1);
    } catch (e) {
      logger.warn('could not invoke the next track of a dependency chain', {
        next: next.track,
        error: String(e),
      });
    }
  }
  // An unreachable API server is thrown (by the engine, or here once the status is written), so
  // Lambda retries the event; a commit that fails on its own merits is not retried.
  const failure = clusterFailure(out, client.stats.failures - failuresBefore);
  if (failure) throw failure;
  return out;
}

const middleware = middy<unknown, ReconcileSummary | CoalescedReconcile | ServedReconcile>()
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
// Refetched after the cache expiry, so a rotated kubeconfig or token reaches warm containers.
if (Object.keys(fetchData).length > 0)
  middleware.use(ssm({ fetchData, setToContext: true, cacheExpiry: ssmCacheExpiryMs() }));
// A parameter that cannot be read fails the invocation with its name, not middy's generic message.
middleware.onError(async (request) => {
  request.error = ssmParameterError(request.error) ?? request.error;
});

export const handler = middleware.handler(reconcileTrack);
