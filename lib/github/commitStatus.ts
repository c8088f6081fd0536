import type { HealthSummary, ReconcileSummary } from '../reconcile/types';
import { type TrackRef, trackLabel } from '../track/trackRef';
import { healthLine, healthState } from './healthStatus';

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
export const statusContext = (track: TrackRef) => `lightkeeper/${trackLabel(track)}`;

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
  const health = summary.health ? `, ${healthLine(summary.health)}` : '';
  const counts = `applied ${applied}, pruned ${pruned}, failed ${failed}${health}`;
  // A commit applied in full is judged by its health: still progressing, the status stays pending
  // until a later reconcile sees it settle (lib/github/awaitedHealthStatus); failed, it fails.
  const other = summary.commit && summary.commit !== pushed ? `at ${summary.commit.slice(0, 12)}: ` : '';
  const settled =
    summary.result === 'Succeeded' && summary.health && !other ? healthState(summary.health) : 'healthy';
  const waiting = settled === 'progressing' ? ', waiting for health' : '';
  const state = settled === 'healthy' ? states[summary.result] : settled === 'failed' ? 'failure' : 'pending';
  const lead: Record<ReconcileSummary['result'], string> = {
    Succeeded: settled === 'failed' ? 'unhealthy: ' : '',
    Failed: 'failed: ',
    Continuing: 'continuing: ',
    Waiting: 'waiting for dependencies: ',
    Aborted: 'stopped: ',
    Suspended: 'suspended: ',
  };
  return withUrl(
    {
      state,
      context: statusContext(summary.track),
      description: clip(`${other}${lead[summary.result]}${counts}${waiting}`),
    },
    targetUrl,
  );
}

/**
 * The status a later reconcile posts on a pushed commit whose health had not settled when the run
 * the push started ended: `success` when every child is healthy, `failure` naming the first that is not.
 */
export function settledHealthStatus(
  track: TrackRef,
  health: HealthSummary,
  targetUrl?: string,
): CommitStatusBody {
  const failed = healthState(health) === 'failed';
  return withUrl(
    {
      state: failed ? 'failure' : 'success',
      context: statusContext(track),
      description: clip(`${failed ? 'unhealthy: ' : ''}${healthLine(health)}`),
    },
    targetUrl,
  );
}
