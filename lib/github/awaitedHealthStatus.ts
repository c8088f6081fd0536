import { isConflict, isLightkeeperError } from '../errors';
import type { ReconcileEvent } from '../lambda/reconcileEvent';
import type { ReconcileSummary } from '../reconcile/types';
import { trackPath } from '../track/loadTrack';
import type { TrackObject } from '../track/trackObject';
import { trackLabel } from '../track/trackRef';
import { settledHealthStatus, statusContext, targetUrlFor } from './commitStatus';
import { apiUrl } from './githubClient';
import { healthState } from './healthStatus';
import { postCommitStatus } from './postCommitStatus';
import { commitOnGitHub, type PushStatusOutcome } from './pushStatus';
import type { PushStatusDeps } from './reportPushStatus';

/** `status.awaitingHealthStatus`: a pushed commit whose GitHub status still waits for health. */
export interface AwaitedHealthStatus {
  commit: string;
  context: string;
  /**
   * The repository the push's run fetched the commit from, where the settled status goes: never
   * the track's repository read later (a spec changed meanwhile would send it elsewhere). A record
   * without one (written before it was kept) is cleared unposted.
   */
  repository?: string;
}

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
  const settled = result === 'Succeeded' && health ? healthState(health) !== 'progressing' : false;
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

type TrackView = TrackObject & {
  metadata: { resourceVersion?: string };
  status?: { awaitingHealthStatus?: AwaitedHealthStatus };
};

/**
 * After every reconcile of the reconcile function: keeps `status.awaitingHealthStatus` and posts the
 * settled health of the commit it names, once. The record is written as the reconciler (its own
 * client, the track's status), guarded by the resourceVersion read here, so a newer run's record is
 * never overwritten and of two runs only the one that cleared the record posts. A failure is an
 * outcome (logged and counted by the caller), never a failed reconcile.
 */
export async function reportAwaitedHealth(
  deps: PushStatusDeps,
  request: Pick<ReconcileEvent, 'track' | 'push'>,
  summary: ReconcileSummary,
): Promise<PushStatusOutcome> {
  const { github } = deps;
  if (!github) return { posted: false, skipped: 'no GitHub token' };
  if (!summary.commit || (summary.result !== 'Succeeded' && summary.result !== 'Failed'))
    return { posted: false, skipped: `reconcile ${summary.result}` };
  try {
    const track = await deps.kube.find<TrackView>(trackPath(request.track));
    if (!track) return { posted: false, skipped: 'track not found' };
    const step = awaitedHealthStep(track.status?.awaitingHealthStatus, summary, request.push?.after);
    if ('keep' in step) return { posted: false, skipped: step.keep };
    // Recorded with the repository the push's run fetched; posted only there.
    const target =
      'record' in step
        ? { ...step.record, repository: await (deps.repository ?? Promise.resolve(track.spec.repository)) }
        : step.clear;
    if (!target.repository) return clearUnposted(deps, request, track, 'no repository recorded');
    const commit = commitOnGitHub(target.commit, target.repository, apiUrl(github.client));
    if ('skipped' in commit) return { posted: false, skipped: commit.skipped };
    await writeRecord(deps, request, track, 'record' in step ? target : null);
    if ('record' in step) return { posted: false, skipped: 'waiting for health' };
    if (!step.post || !summary.health) return { posted: false, skipped: 'superseded by a newer commit' };
    const url = targetUrlFor(github.targetUrl, summary.track, target.commit);
    const body = { ...settledHealthStatus(summary.track, summary.health, url), context: target.context };
    return postCommitStatus(github.client, commit, body);
  } catch (error) {
    if (isConflict(error)) return { posted: false, skipped: 'the track changed meanwhile' };
    if (!isLightkeeperError(error)) throw error;
    return { posted: false, problem: error.message };
  }
}

const writeRecord = (
  deps: PushStatusDeps,
  request: Pick<ReconcileEvent, 'track'>,
  track: TrackView,
  record: AwaitedHealthStatus | null,
) =>
  deps.kube.request('PATCH', trackPath(request.track, 'status'), {
    body: {
      metadata: { resourceVersion: track.metadata.resourceVersion },
      status: { awaitingHealthStatus: record },
    },
    contentType: 'application/merge-patch+json',
    subject: `${trackLabel(request.track)} status.awaitingHealthStatus`,
  });

async function clearUnposted(
  deps: PushStatusDeps,
  request: Pick<ReconcileEvent, 'track'>,
  track: TrackView,
  why: string,
): Promise<PushStatusOutcome> {
  await writeRecord(deps, request, track, null);
  return { posted: false, skipped: why };
}
