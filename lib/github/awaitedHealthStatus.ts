import type { AwaitedHealthPolicy } from '../reconcile/reconcileDeps';
import type { ReconcileSummary } from '../reconcile/types';
import type { AwaitedHealthStatus } from '../track/trackObject';
import { settledHealthStatus, statusContext, targetUrlFor } from './commitStatus';
import { apiUrl } from './githubClient';
import { healthState } from './healthStatus';
import { postCommitStatus } from './postCommitStatus';
import { commitOnGitHub, type PushStatusOutcome, type PushStatusSettings } from './pushStatus';
import type { PushStatusDeps } from './reportPushStatus';
export type AwaitedHealthStep =
  | { keep: string }
  | { record: AwaitedHealthStatus }
  | { clear: AwaitedHealthStatus; post: boolean };

/**
 * What a finished reconcile does with the track's record (pure): a push-started run whose commit
 * applied but is still progressing records it; a later run at that commit that sees health settled
 * clears it and posts; a run at another commit clears it unposted (superseded: the older commit's
 * status is not updated again). Runs that applied nothing to judge (continuing, stopped, suspended)
 * leave it.
 */
export function awaitedHealthStep(
  current: AwaitedHealthStatus | undefined,
  summary: ReconcileSummary,
  pushed?: string | undefined,
): AwaitedHealthStep {
  const { commit, health, result } = summary;
  if (!commit || (result !== 'Succeeded' && result !== 'Failed')) return { keep: `reconcile ${result}` };
  // Settled: healthy or failed after a run that applied the commit; a run failed by its health
  // check (spec.healthTimeout, summary.result Failed) has settled it too.
  const state = health ? healthState(health) : undefined;
  const settled =
    result === 'Succeeded' ? state !== undefined && state !== 'progressing' : state === 'failed';
  if (pushed === commit && result === 'Succeeded' && health && !settled) {
    return current?.commit === commit
      ? { keep: 'already waiting' }
      : { record: { commit, context: statusContext(summary.track) } };
  }
  if (!current) return { keep: 'no commit awaits a health status' };
  if (current.commit !== commit) return { clear: current, post: false };
  // A push of the same commit again has just posted its own final status.
  if (pushed === commit) return { clear: current, post: false };
  return settled ? { clear: current, post: true } : { keep: 'health not settled' };
}

/**
 * The reconcile function's policy for `status.awaitingHealthStatus` (ReconcileDeps.awaitedHealth), kept
 * in the engine's one status write: a push-started run whose commit is still progressing records it
 * with the repository it fetched; a later run that sees its health settle clears it to post; a record
 * whose commit is not on GitHub is left alone. `pushed`: the commit of the push that started this run.
 */
export function awaitedHealthPolicy(
  github: PushStatusSettings,
  pushed: string | undefined,
): AwaitedHealthPolicy {
  return (current, summary, repository) => {
    if (!summary.commit || (summary.result !== 'Succeeded' && summary.result !== 'Failed'))
      return { keep: `reconcile ${summary.result}` };
    const step = awaitedHealthStep(current, summary, pushed);
    if ('keep' in step) return step;
    // Recorded with the repository the push's run fetched; posted only there.
    const target = 'record' in step ? { ...step.record, repository } : step.clear;
    if (!target.repository) return { clear: target, post: false, why: 'no repository recorded' };
    const commit = commitOnGitHub(target.commit, target.repository, apiUrl(github.client));
    if ('skipped' in commit) return { keep: commit.skipped };
    if ('record' in step) return { record: target };
    if (!step.post || !summary.health)
      return { clear: target, post: false, why: 'superseded by a newer commit' };
    return { clear: target, post: true, why: 'health settled' };
  };
}

/**
 * After a reconcile of the reconcile function: posts the settled health of the commit whose record
 * this run cleared (summary.awaitedHealth, written by the engine in its one status write), once. A
 * failure is an outcome (logged and counted by the caller), never a failed reconcile.
 */
export async function reportAwaitedHealth(
  deps: Pick<PushStatusDeps, 'github'>,
  summary: ReconcileSummary,
): Promise<PushStatusOutcome> {
  const { github } = deps;
  if (!github) return { posted: false, skipped: 'no GitHub token' };
  if (!summary.commit || (summary.result !== 'Succeeded' && summary.result !== 'Failed'))
    return { posted: false, skipped: `reconcile ${summary.result}` };
  const change = summary.awaitedHealth;
  if (!change) return { posted: false, skipped: 'no record of awaited health kept' };
  if ('keep' in change) return { posted: false, skipped: change.keep };
  if ('record' in change) return { posted: false, skipped: 'waiting for health' };
  if (!change.post || !summary.health) return { posted: false, skipped: change.why };
  const target = change.clear;
  const commit = commitOnGitHub(target.commit, target.repository ?? '', apiUrl(github.client));
  if ('skipped' in commit) return { posted: false, skipped: commit.skipped };
  const url = targetUrlFor(github.targetUrl, summary.track, target.commit);
  const body = { ...settledHealthStatus(summary.track, summary.health, url), context: target.context };
  return postCommitStatus(github.client, commit, body);
}
