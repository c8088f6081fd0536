import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import { clusterFailure } from './clusterFailure';
import { takeInline } from './inlineRun';
import { startReconcile } from './invokeReconcile';
import { nextRuns } from './nextRuns';
import {
  type Invocation,
  type InvocationDeps,
  type InvocationResult,
  reconcileInvocation,
} from './reconcileInvocation';
import { startNextRuns } from './startNextRuns';

export interface ChainDeps extends InvocationDeps {
  lambda: LambdaClient;
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
  if (!('result' in out)) return out;
  const failure = clusterFailure(out, deps.client.stats.failures - failuresBefore);
  const next = nextRuns(deps.config, request, out);
  const { inline, rest } = failure
    ? { rest: next }
    : takeInline(next, remaining(invocation), deps.inlineMinMs);
  await startNextRuns(deps.lambda, deps.functionName, rest, deps);
  if (failure) throw failure;
  if (inline) await runTakenOn(deps, inline, invocation);
  return out;
}

async function runTakenOn(deps: ChainDeps, first: ReconcileEvent, invocation: Invocation): Promise<void> {
  for (let event: ReconcileEvent | undefined = first; event; ) {
    const current: ReconcileEvent = event;
    deps.metrics.addMetric('runsTakenOn', MetricUnit.Count, 1);
    const before = deps.client.stats.failures;
    let out: InvocationResult;
    try {
      out = await reconcileInvocation(deps, current, invocation);
    } catch (e) {
      deps.logger.warn('a run taken on failed: invoked on its own', {
        next: current.reason,
        error: String(e),
      });
      await startReconcile(deps.lambda, deps.functionName, current);
      return;
    }
    if (!('result' in out)) return;
    const failed = clusterFailure(out, deps.client.stats.failures - before) !== undefined;
    const next = nextRuns(deps.config, current, out);
    const taken = failed ? { rest: next } : takeInline(next, remaining(invocation), deps.inlineMinMs);
    await startNextRuns(deps.lambda, deps.functionName, taken.rest, deps);
    if (failed) {
      deps.logger.warn('a run taken on failed on the cluster: invoked on its own', { next: current.reason });
      await startReconcile(deps.lambda, deps.functionName, current);
      return;
    }
    event = taken.inline;
  }
}
