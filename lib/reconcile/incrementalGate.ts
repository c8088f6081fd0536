import type { ChangedFiles } from '../git/readChangedFiles';
import { kustomizationFileIn } from '../kustomize/kustomizationFile';
import { defaultIncrementalMaxFiles } from '../settings/deploymentModes';
import type { TrackObject } from '../track/trackObject';
import type { ReconcileRequest } from './types';

/**
 * `whole`: check every object of the track (today's run), and why. `diff`: everything known
 * before the commits are compared allows an incremental run from `from`: read the tree diff.
 * `incremental`: apply and prune only the changed files, `files`.
 */
export type IncrementalVerdict =
  | { kind: 'whole'; why: string }
  | { kind: 'diff'; from: string }
  | { kind: 'incremental'; from: string; files: ChangedFiles };

/** The tree diff as it was read: the files, too many, or not readable (subPath missing, C0 not fetched). */
export type DiffRead = ChangedFiles | 'tooMany' | 'unreadable';

/**
 * Runs a person or a chain started to have the whole track checked: a reconcile asked for with
 * lightkeeper.dev/requestedAt or `lightkeeper reconcile`, a replay, a new or changed track, and
 * the runs a dependency's readiness starts (lib/lambda/dependentEvents.ts,
 * behindDependencyEvents.ts).
 */
const wholeCheckReasons = [
  /^requested at /,
  /^new or changed track$/,
  /^lightkeeper reconcile/,
  /^replay by /,
  / Ready at [0-9a-f]{7,64} \(/,
  / waits for it \(/,
];

/**
 * Whether a run may apply only what a push changed (pure). Only when every one holds: a plain-files
 * track (no Helm chart; no kustomization at either commit, unless rendering is off) without
 * spec.healthTimeout; not a drift sweep, continuation, named commit or a run asked to check
 * everything; its last run succeeded at the last applied commit C0 (nothing partly applied) under
 * the same spec generation, and recorded its counters; C0 differs from `commit`; C0's tree was read
 * and at most `maxFiles` manifest files changed. Anything else checks the whole track: an
 * incremental run only ever narrows what a whole run would do.
 */
export function incrementalGate(
  input: { track: TrackObject; request: ReconcileRequest; commit: string; maxFiles: number | undefined },
  diff?: DiffRead,
): IncrementalVerdict {
  const { track, request, commit } = input;
  const maxFiles = input.maxFiles ?? defaultIncrementalMaxFiles;
  const whole = (why: string): IncrementalVerdict => ({ kind: 'whole', why });
  const status = track.status ?? {};
  const from = status.lastAppliedCommit;
  if (maxFiles === 0) return whole('incremental runs are off');
  if (request.mode === 'drift') return whole('a drift sweep checks every object');
  if (request.continuation) return whole('a continuation goes on with the whole commit');
  if (request.commit !== undefined) return whole('a named commit is checked whole');
  if (wholeCheckReasons.some((r) => r.test(request.reason ?? '')))
    return whole('this run was asked to check every object');
  if (track.spec.helm !== undefined) return whole('a chart is rendered whole');
  if (track.spec.healthTimeout !== undefined) return whole("the track's health is judged whole");
  if (from === undefined) return whole('no commit was applied yet');
  if (from === commit) return whole('the commit is the one applied');
  if (status.partiallyAppliedCommit !== undefined) return whole('a later commit was partly applied');
  if (status.lastAttemptedCommit !== from) return whole('the last run did not apply its commit');
  if (status.conditions?.find((c) => c.type === 'Ready')?.status !== 'True')
    return whole('the last run did not succeed');
  if (
    status.lastAppliedGeneration === undefined ||
    status.lastAppliedGeneration !== track.metadata.generation
  )
    return whole('the spec changed since the last applied commit');
  const counters = [status.objectsDiscovered, status.objectsPlanned, status.objectsIgnored];
  if (counters.some((n) => typeof n !== 'number')) return whole('the last run recorded no counters');
  if (diff === undefined) return { kind: 'diff', from };
  if (diff === 'unreadable') return whole(`the tree of ${from} could not be compared`);
  if (diff === 'tooMany') return whole(`more than ${maxFiles} files changed`);
  const rendered =
    track.spec.kustomize?.enabled !== false &&
    (kustomizationFileIn(diff.names.from) !== undefined || kustomizationFileIn(diff.names.to) !== undefined);
  if (rendered) return whole('a kustomization is rendered whole');
  return { kind: 'incremental', from, files: diff };
}
