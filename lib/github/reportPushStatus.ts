import type { KubeClient } from '../kube/kubeClient';
import type { ReconcileEvent } from '../lambda/reconcileEvent';
import { loadTrack } from '../reconcile/loadTrack';
import type { ReconcileSummary } from '../reconcile/types';
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
  /** The track's repository URL, read once per invocation for its pending and final statuses. */
  repository?: Promise<string> | undefined;
}

/**
 * The reconcile function's commit status for a request: `pending` without a summary, else the
 * outcome. Only a request started by a push posts; nothing here throws (a failure is an outcome).
 */
export async function reportPushStatus(
  deps: PushStatusDeps,
  request: Pick<ReconcileEvent, 'track' | 'push'>,
  summary?: ReconcileSummary,
): Promise<PushStatusOutcome> {
  if (!request.push) return { posted: false, skipped: 'not started by a push' };
  if (!deps.github) return { posted: false, skipped: 'no GitHub token' };
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
