import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import { clusterFailure } from './clusterFailure';
import { takeInline } from './inlineRun';
import { startReconcile } from './invokeReconcile';
import type { LambdaClientSource } from './lazyLambdaClient';
import { nextRuns } from './nextRuns';
import {
  type Invocation,
  type InvocationDeps,
  type InvocationResult,
  reconcileInvocation,
} from './reconcileInvocation';
import { startNextRuns } from './startNextRuns';

export interface ChainDeps extends InvocationDeps {
  lambda: LambdaClientSource;
  /** This function: where the next runs are invoked. */
  functionName: string;
  /** A run of a sharded apply is taken on here while this much of the invocation's time is left. */
  inlineMinMs: number;
}

const remaining = (invocation: Invocation) => invocation.getRemainingTimeInMillis?.() ?? 900_000;

/**
 * An invocation of the reconcile function: the event's run, then the runs it starts next
 * (lib/lambda/nextRuns.ts) invoked — except one run of a sharded apply, which this invocation runs
 * itself while time is left (inlineRun.ts), and so on from that run. Returns the event's own result.
 * A run that failed on the cluster throws, so Lambda retries it; one taken on that fails is invoked
 * on its own instead, where Lambda's retries and the failure queue cover it as any shard's.
 */
export async function reconcileAndStartNext(
  deps: ChainDeps,
  request: ReconcileEvent,
  invocation: Invocation,
): Promise<InvocationResult> {
  const failuresBefore = deps.client.stats.failures;
  const out = await reconcileInvocation(deps, request, invocation);
  let next = await startNext(deps, request, out, failuresBefore, invocation, async (_event, failure) => {
    throw failure;
  });
  while (next) next = await runTakenOn(deps, next, invocation);
  return out;
}

/** A run taken on: what it starts next. One that throws or fails on the cluster is invoked on its own. */
async function runTakenOn(
  deps: ChainDeps,
  event: ReconcileEvent,
  invocation: Invocation,
): Promise<ReconcileEvent | undefined> {
  deps.metrics.addMetric('runsTakenOn', MetricUnit.Count, 1);
  const invokeAlone = async (failed: ReconcileEvent, error: unknown) => {
    deps.logger.warn('a run taken on failed: invoked on its own', {
      next: failed.reason,
      error: String(error),
    });
    await startReconcile(deps.lambda, deps.functionName, failed);
  };
  const failuresBefore = deps.client.stats.failures;
  let out: InvocationResult;
  try {
    out = await reconcileInvocation(deps, event, invocation);
  } catch (e) {
    await invokeAlone(event, e);
    return undefined;
  }
  return startNext(deps, event, out, failuresBefore, invocation, invokeAlone);
}

/**
 * After a run: starts the runs it asks for (all of them when it failed on the cluster, before
 * `onFailure` is told) and returns the one to take on here, if any.
 */
async function startNext(
  deps: ChainDeps,
  event: ReconcileEvent,
  out: InvocationResult,
  failuresBefore: number,
  invocation: Invocation,
  onFailure: (event: ReconcileEvent, failure: Error) => Promise<void>,
): Promise<ReconcileEvent | undefined> {
  if (!('result' in out)) return undefined;
  const failure = clusterFailure(out, deps.client.stats.failures - failuresBefore);
  const next = nextRuns(deps.config, event, out);
  const { inline, rest } = failure
    ? { rest: next }
    : takeInline(next, remaining(invocation), deps.inlineMinMs);
  await startNextRuns(deps.lambda, deps.functionName, rest, deps);
  if (!failure) return inline;
  await onFailure(event, failure);
  return undefined;
}
