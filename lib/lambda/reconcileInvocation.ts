import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { awaitedHealthPolicy, reportAwaitedHealth } from '../github/awaitedHealthStatus';
import type { PushStatusOutcome, PushStatusSettings } from '../github/pushStatus';
import { recordPushStatus } from '../github/recordPushStatus';
import { type PushStatusDeps, reportPushStatus } from '../github/reportPushStatus';
import type { KubeClient } from '../kube/kubeClient';
import { type CoalescedReconcile, isCoalesced } from '../lease/coalesced';
import { isServed, type ServedReconcile } from '../lease/served';
import { recordReconcile } from '../observability/recordReconcile';
import type { Telemetry } from '../observability/telemetry';
import { deliveryServed, servedState } from '../reconcile/deliveryServed';
import { driftBackedOff } from '../reconcile/fetchBackoff';
import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import { reconcileShard } from '../reconcile/reconcileShard';
import type { ShardSettings } from '../reconcile/shardRecord';
import type { TimeBudgetSettings } from '../reconcile/timeBudget';
import { timeBudgetMs } from '../reconcile/timeBudget';
import type { ReconcileSummary } from '../reconcile/types';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { trackLabel } from '../track/trackRef';
import { reconcileUnderLease } from './reconcileUnderLease';

export interface InvocationDeps extends Telemetry {
  client: KubeClient;
  config: DeploymentConfig;
  /** Undefined when no GitHub token is configured: no commit status is posted. */
  github: PushStatusSettings | undefined;
  /**
   * The lease (namespace, TTL) and time settings: `reserveMs` of the invocation's time is kept back
   * from the wait for the lease, for the reconcile itself (a waiter that gives up fails its
   * invocation, and Lambda's retry of an asynchronous event tries again later); `timeBudget` bounds
   * the run (lib/config/reconcileConfig.ts).
   */
  settings: InvocationSettings;
}

/** The part of the reconcile function's settings an invocation uses (lib/config/reconcileConfig.ts). */
export interface InvocationSettings {
  leaseNamespace: string;
  leaseTtlSeconds: number;
  reserveMs: number;
  timeBudget: TimeBudgetSettings;
  /** Undefined: tracks are never sharded. */
  shards?: ShardSettings;
}

/** What the invocation's context tells: its id (the lease's holder) and the time it has left. */
export interface Invocation {
  awsRequestId: string;
  getRemainingTimeInMillis?: () => number;
}

export type InvocationResult = ReconcileSummary | CoalescedReconcile | ServedReconcile;

/**
 * One invocation of the reconcile function: the run under the track's lease (or `coalesced` /
 * `served` without one), the push's commit statuses, metrics and the log line. What runs next is
 * the caller's (lib/lambda/nextRuns.ts).
 */
export async function reconcileInvocation(
  deps: InvocationDeps,
  request: ReconcileEvent,
  invocation: Invocation,
): Promise<InvocationResult> {
  const remainingMs = () => invocation.getRemainingTimeInMillis?.() ?? 900_000;
  const { client, logger, metrics } = deps;
  logger.appendKeys({ track: trackLabel(request.track), mode: request.mode, reason: request.reason });
  // A status GitHub did not take is logged and counted; it never fails the reconcile.
  const recordStatus = (outcome: PushStatusOutcome) => recordPushStatus({ logger, metrics }, outcome);
  // A push's commit shows `pending` once this invocation fetched it as the track (a coalesced run,
  // or one that could not read the repository, posts nothing), on the repository it fetched. Its
  // reads of the track are counted apart: they never make the reconcile a cluster failure.
  const statusDeps: PushStatusDeps = { github: deps.github, kube: client.countedApart() };
  let pending: Promise<unknown> | undefined;
  const onFetched = ({ repository }: { repository: string }) => {
    statusDeps.repository = Promise.resolve(repository);
    pending = reportPushStatus(statusDeps, request).then(recordStatus);
  };
  // A push's delivery is served once: a copy that waited for the lease finds the run before it.
  // A drift check finds the track backed off by a run that failed to fetch after the sweep listed it
  // (the check waited for that run's lease, or started once it had ended).
  const push = request.push;
  const alreadyServed =
    push && request.commit === undefined && request.mode === 'apply'
      ? (track: Parameters<typeof servedState>[0]) => deliveryServed(servedState(track), push)
      : request.mode === 'drift'
        ? (track: { status?: unknown }) => driftBackedOff(track.status, new Date())
        : undefined;
  // No commit pinned unless a replay asked: a waiter reconciles the head as it is when it runs.
  // A pinned replay is never coalesced: it waits its own turn (see reconcileUnderLease).
  const { leaseNamespace, leaseTtlSeconds, reserveMs, shards } = deps.settings;
  // A shard runs beside its siblings, without the track's lease: it never prunes, and its record
  // is a conditional write (lib/reconcile/reconcileShard.ts).
  if (request.shard && request.commit !== undefined) {
    const shardDeps = {
      client,
      config: deps.config,
      keyNamespace: leaseNamespace,
      // As a whole run's: what is left of this invocation (a shard taken on after another gets less).
      timeBudgetMs: () => timeBudgetMs(remainingMs(), deps.settings.timeBudget),
      ...(shards ? { shards } : {}),
    };
    const out = await reconcileShard(shardDeps, { ...request, commit: request.commit, shard: request.shard });
    recordReconcile(metrics, out, request);
    logger.info('shard reconciled', {
      ...out,
      changes: out.changes.filter((c) => c.action !== 'unchanged').slice(0, 50),
    });
    return out;
  }
  const remaining = remainingMs();
  // The budget is read when the engine starts, after any wait for the lease.
  const timeBudget = () => timeBudgetMs(remainingMs(), deps.settings.timeBudget);
  const out = await reconcileUnderLease(
    {
      client,
      config: deps.config,
      timeBudgetMs: timeBudget,
      onFetched,
      ...(shards ? { shards } : {}),
      ...(deps.github ? { awaitedHealth: awaitedHealthPolicy(deps.github, push?.after) } : {}),
    },
    request,
    {
      alreadyServed,
      namespace: leaseNamespace,
      ttlSeconds: leaseTtlSeconds,
      holder: invocation.awsRequestId,
      waitUntil: Date.now() + Math.max(remaining - reserveMs, remaining / 2),
      onWait: (heldBy) => logger.info('waiting for the track lease', { heldBy }),
      onRenewalProblem: (problem) => logger.warn('track lease renewal failed', { problem }),
    },
  );
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
  // A pushed commit still progressing was recorded on the track by the run; one that saw it settle posts.
  recordStatus(await reportAwaitedHealth(statusDeps, out));
  const { changes, ...brief } = out;
  const shown = changes.filter((c) => c.action !== 'unchanged').slice(0, 50);
  // Aborted: the track lease was lost, or this continuation was superseded (errors say which).
  if (out.result === 'Aborted') logger.warn('reconcile stopped', { ...brief, changes: shown });
  else logger.info('reconciled', { ...brief, changes: shown });
  return out;
}
