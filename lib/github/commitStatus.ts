import type { ReconcileSummary, TrackRef } from '../reconcile/types';

export type CommitState = 'pending' | 'success' | 'failure' | 'error';

/** The body of `POST /repos/{owner}/{repo}/statuses/{sha}`. */
export interface CommitStatusBody {
  state: CommitState;
  context: string;
  description: string;
  target_url?: string;
}

/** GitHub refuses a longer description. */
export const maxDescriptionLength = 140;

/** One status per track on a commit: `lightkeeper/<kind>/<namespace>/<name>`, no namespace for a cluster track. */
export const statusContext = (track: TrackRef) =>
  ['lightkeeper', track.kind, ...(track.namespace ? [track.namespace] : []), track.name].join('/');

/** `{kind}`, `{namespace}`, `{name}` and `{sha}` in a configured target URL, URL-encoded. */
export function targetUrlFor(template: string | undefined, track: TrackRef, sha: string) {
  if (!template) return undefined;
  const values: Record<string, string> = {
    kind: track.kind,
    namespace: track.namespace ?? '',
    name: track.name,
    sha,
  };
  return template.replace(/\{(kind|namespace|name|sha)\}/g, (_, key: string) =>
    encodeURIComponent(values[key] ?? ''),
  );
}

const clip = (text: string) =>
  text.length <= maxDescriptionLength ? text : `${text.slice(0, maxDescriptionLength - 1)}…`;

const withUrl = (body: CommitStatusBody, targetUrl: string | undefined): CommitStatusBody =>
  targetUrl ? { ...body, target_url: targetUrl } : body;

/** What a push's commit shows while its reconcile runs. */
export const pendingStatus = (track: TrackRef, targetUrl?: string): CommitStatusBody =>
  withUrl({ state: 'pending', context: statusContext(track), description: 'reconciling' }, targetUrl);

const states: Record<ReconcileSummary['result'], CommitState> = {
  Succeeded: 'success',
  Failed: 'failure',
  // Still under way: the continuation posts the outcome.
  Continuing: 'pending',
  // Held back by spec.dependsOn: the dependency invokes the track once Ready, and that run posts.
  Waiting: 'pending',
  // Stopped by lightkeeper itself (lease lost, superseded): not the commit's fault.
  Aborted: 'error',
  Suspended: 'error',
};

/**
 * The status a finished reconcile leaves on the pushed commit. When the reconcile applied another
 * commit (a later push was already the head), the description says which.
 */
export function finalStatus(summary: ReconcileSummary, pushed: string, targetUrl?: string): CommitStatusBody {
  const { applied, pruned, failed } = summary.counts;
  const health = summary.health ? `, healthy ${summary.health.healthy} of ${summary.health.of}` : '';
  const counts = `applied ${applied}, pruned ${pruned}, failed ${failed}${health}`;
  const other = summary.commit && summary.commit !== pushed ? `at ${summary.commit.slice(0, 12)}: ` : '';
  const lead: Record<ReconcileSummary['result'], string> = {
    Succeeded: '',
    Failed: 'failed: ',
    Continuing: 'continuing: ',
    Waiting: 'waiting for dependencies: ',
    Aborted: 'stopped: ',
    Suspended: 'suspended: ',
  };
  return withUrl(
    {
      state: states[summary.result],
      context: statusContext(summary.track),
      description: clip(`${other}${lead[summary.result]}${counts}`),
    },
    targetUrl,
  );
}
