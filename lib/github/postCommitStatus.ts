import type { CommitStatusBody } from './commitStatus';
import type { GitHubClient } from './githubClient';

export interface CommitRef {
  owner: string;
  repo: string;
  sha: string;
}

/** Whether GitHub took the status; a refusal or an unreachable API is data, never thrown. */
export type PostOutcome =
  | { posted: true; state: CommitStatusBody['state'] }
  | { posted: false; state: CommitStatusBody['state']; status?: number; problem: string };

export async function postCommitStatus(
  client: GitHubClient,
  commit: CommitRef,
  body: CommitStatusBody,
): Promise<PostOutcome> {
  try {
    await client.request('POST /repos/{owner}/{repo}/statuses/{sha}', { ...commit, ...body });
    return { posted: true, state: body.state };
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    return {
      posted: false,
      state: body.state,
      ...(typeof status === 'number' ? { status } : {}),
      problem: error instanceof Error ? error.message : String(error),
    };
  }
}
