import type { KubeClient } from '../kube/kubeClient';
import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import type { ReconcileSummary } from '../reconcile/types';
import { loadTrack } from '../track/loadTrack';
import {
  type PushStatusOutcome,
  type PushStatusSettings,
  postPushPending,
  postPushResult,
} from './pushStatus';

export interface PushStatusDeps {
  /** Undefined when no GitHub token is configured: nothing is posted. */
  github: PushStatusSettings | undefined;
  kube: KubeClient;
  /**
   * The repository the track's run fetched (ReconcileDeps.onFetched), for its pending and final
   * statuses and the record of a commit awaiting health; else read from the track once.
   */
  repository?: Promise<string> | undefined;
}

/**
 * The reconcile function's commit status for a request: `pending` without a summary (posted once
 * the run fetched, see ReconcileDeps.onFetched), else the outcome. Only a request started by a
 * push posts, and only a run that read a commit of the repository with the track's own
 * credentials: a track that could not (fetch refused, not found, its Secret unreadable), or did
 * not try (held back, suspended), says nothing on a commit it may not read. Nothing here throws
 * (a failure is an outcome).
 */
export async function reportPushStatus(
  deps: PushStatusDeps,
  request: Pick<ReconcileEvent, 'track' | 'push'>,
  summary?: ReconcileSummary,
): Promise<PushStatusOutcome> {
  if (!request.push) return { posted: false, skipped: 'not started by a push' };
  if (!deps.github) return { posted: false, skipped: 'no GitHub token' };
  if (summary && !summary.commit)
    return { posted: false, skipped: 'the run read no commit of the repository' };
  let repositoryUrl: string;
  try {
    deps.repository ??= loadTrack(deps.kube, request.track).then((track) => track.spec.repository);
    repositoryUrl = await deps.repository;
  } catch (error) {
    deps.repository = undefined;
    return { posted: false, problem: error instanceof Error ? error.message : String(error) };
  }
  return summary
    ? postPushResult(deps.github, request, repositoryUrl, summary)
    : postPushPending(deps.github, request, repositoryUrl);
}
