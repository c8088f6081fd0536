import type { EmitterWebhookEvent } from '@octokit/webhooks';
import { PayloadError } from '../errors';

/** A `push` delivery's payload as `@octokit/webhooks` types it (GitHub's webhook schema). */
export type PushPayload = EmitterWebhookEvent<'push'>['payload'];

export interface PushEvent {
  /** Every URL form the payload gives for the repository (clone, ssh, html, git). */
  repositoryUrls: string[];
  defaultBranch: string | undefined;
  /** `refs/heads/main`, `refs/tags/v1`. */
  ref: string;
  before: string;
  after: string;
  created: boolean;
  deleted: boolean;
  forced: boolean;
  /** When the head commit was made, for commit-to-applied latency. */
  headCommitTime: string | undefined;
  /**
   * Paths added, removed or modified by the pushed commits. Undefined when the payload cannot be
   * trusted to name them all (missing or truncated lists, a new ref, a force push).
   */
  touchedPaths: string[] | undefined;
}

// GitHub lists at most 2,048 commits in a push delivery, and caps each commit's file lists
// (documented as 3,000 to 5,000 paths depending on the product): at the cap, assume truncation.
const maxCommits = 2048;
const maxFilesPerList = 3000;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The parts of a GitHub `push` delivery that decide which tracks to reconcile. */
export function parsePush(json: unknown): PushEvent {
  if (!isObject(json)) throw new PayloadError('push payload is not a JSON object');
  if (!str(json.ref) || !str(json.after) || !str(json.before))
    throw new PayloadError('push payload lacks ref, before or after');
  if (!isObject(json.repository)) throw new PayloadError('push payload lacks repository');
  // Checked above as far as every push must go; the optional parts are checked where read below.
  const payload = json as unknown as PushPayload;
  const { repository } = payload;
  const repositoryUrls = [
    repository.clone_url,
    repository.ssh_url,
    repository.html_url,
    repository.git_url,
    repository.url,
  ]
    .map(str)
    .filter((url): url is string => url !== undefined);
  if (repositoryUrls.length === 0) throw new PayloadError('push payload names no repository URL');
  const created = payload.created === true;
  const forced = payload.forced === true;
  return {
    repositoryUrls: [...new Set(repositoryUrls)],
    defaultBranch: str(repository.default_branch) ?? str(repository.master_branch),
    ref: payload.ref,
    before: payload.before,
    after: payload.after,
    created,
    deleted: payload.deleted === true,
    forced,
    headCommitTime: isObject(payload.head_commit) ? str(payload.head_commit.timestamp) : undefined,
    // A new ref lists only commits no other ref had, and a force push may drop files that no listed
    // commit mentions: in both cases the list does not describe the change to the tree.
    touchedPaths: created || forced ? undefined : touchedPaths(payload),
  };
}

function touchedPaths(payload: PushPayload): string[] | undefined {
  const commits: unknown = payload.commits;
  if (!Array.isArray(commits) || commits.length === 0 || commits.length >= maxCommits) return undefined;
  // Event-API shaped payloads say how many commits the push had; more than listed means truncated.
  const { size, distinct_size } = payload as Partial<Record<'size' | 'distinct_size', unknown>>;
  for (const count of [size, distinct_size]) {
    if (typeof count === 'number' && count > commits.length) return undefined;
  }
  const paths = new Set<string>();
  for (const commit of commits) {
    if (!isObject(commit)) return undefined;
    for (const list of [commit.added, commit.removed, commit.modified]) {
      if (!Array.isArray(list) || list.length >= maxFilesPerList) return undefined;
      for (const path of list) {
        if (typeof path !== 'string') return undefined;
        paths.add(path);
      }
    }
  }
  return [...paths];
}
