import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import type { ReconcileSummary } from '../reconcile/types';
import type { TrackRef } from '../track/trackRef';
import { finalStatus, pendingStatus, targetUrlFor } from './commitStatus';
import { apiUrl, type GitHubClient } from './githubClient';
import { type CommitRef, type PostOutcome, postCommitStatus } from './postCommitStatus';
import { repositorySlug, servesRepository } from './repositorySlug';

export interface PushStatusSettings {
  client: GitHubClient;
  /** A URL, or a template with `{kind}`, `{namespace}`, `{name}`, `{sha}`. */
  targetUrl?: string | undefined;
}

/** Why nothing was posted, or what GitHub answered. */
export type PushStatusOutcome =
  | PostOutcome
  | { posted: false; skipped: string }
  | { posted: false; problem: string };

/** The pushed commit of a request, when it names one on a GitHub repository. */
function pushedCommit(
  request: Pick<ReconcileEvent, 'push'>,
  repositoryUrl: string,
  apiBaseUrl: string,
): CommitRef | { skipped: string } {
  const sha = request.push?.after;
  if (!sha || /^0+$/.test(sha)) return { skipped: 'not started by a push' };
  return commitOnGitHub(sha, repositoryUrl, apiBaseUrl);
}

/** A commit of a track's repository, when the GitHub API the client sends to serves it. */
export function commitOnGitHub(
  sha: string,
  repositoryUrl: string,
  apiBaseUrl: string,
): CommitRef | { skipped: string } {
  const slug = repositorySlug(repositoryUrl);
  if (!slug) return { skipped: `not a GitHub repository URL: ${repositoryUrl}` };
  if (!servesRepository(apiBaseUrl, slug.host))
    return { skipped: `${slug.host} is not served by ${apiBaseUrl}` };
  return { owner: slug.owner, repo: slug.repo, sha };
}

/** `pending` on the pushed commit when a reconcile started by a push begins. */
export async function postPushPending(
  settings: PushStatusSettings,
  request: Pick<ReconcileEvent, 'push'> & { track: TrackRef },
  repositoryUrl: string,
): Promise<PushStatusOutcome> {
  const commit = pushedCommit(request, repositoryUrl, apiUrl(settings.client));
  if ('skipped' in commit) return { posted: false, skipped: commit.skipped };
  const url = targetUrlFor(settings.targetUrl, request.track, commit.sha);
  return postCommitStatus(settings.client, commit, pendingStatus(request.track, url));
}

/** The outcome of a reconcile started by a push, on the pushed commit. */
export async function postPushResult(
  settings: PushStatusSettings,
  request: Pick<ReconcileEvent, 'push'>,
  repositoryUrl: string,
  summary: ReconcileSummary,
): Promise<PushStatusOutcome> {
  const commit = pushedCommit(request, repositoryUrl, apiUrl(settings.client));
  if ('skipped' in commit) return { posted: false, skipped: commit.skipped };
  const url = targetUrlFor(settings.targetUrl, summary.track, commit.sha);
  return postCommitStatus(settings.client, commit, finalStatus(summary, commit.sha, url));
}
