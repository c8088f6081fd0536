import type { Change } from '../apply/change';
import { unpinHint } from '../pin/unpinHint';
import type { TrackObject } from '../track/trackObject';
import type { Finished } from './outcomes';
import type { EventReason } from './recordEvent';
import type { ReconcileRequest, ReconcileSummary } from './types';

// Every Event text a reconcile records on its track.

export interface TrackEvent {
  type: 'Normal' | 'Warning';
  reason: EventReason;
  message: string;
}

const listed = (changes: Change[], describe: (c: Change) => string) =>
  changes.slice(0, 20).map(describe).join(', ');

const why = (reason: string | undefined) => (reason ? ` (${reason})` : '');

/** Recorded when a run has read a commit the track has not applied yet, before it applies it. */
export const startedEvent = (commit: string, reason: string | undefined): TrackEvent => ({
  type: 'Normal',
  reason: 'ReconcileStarted',
  message: `reconciling ${commit}${why(reason)}`,
});

/** A run that stopped (its lease lost, or a superseded continuation): the last error says why. */
export const abortedEvent = (summary: ReconcileSummary): TrackEvent => ({
  type: 'Warning',
  reason: 'ReconcileAborted',
  message: `reconcile${summary.commit ? ` of ${summary.commit}` : ''} stopped: ${summary.errors.at(-1)}`,
});

/** A coordinating run found shards running past the pending time (their invocation lost): restarted. */
export const shardsStuckEvent = (commit: string, stuck: readonly string[]): TrackEvent => ({
  type: 'Warning',
  reason: 'ShardStuck',
  message: `shards of ${commit} pending too long, restarted: ${stuck.slice(0, 20).join(', ')}`,
});

/** A run that follows its track's pin while the head has moved on: how to follow it again. */
export const pinnedBehindHeadEvent = (
  pinnedMessage: string,
  request: Pick<ReconcileRequest, 'track' | 'reason'>,
  reference: string,
): TrackEvent => ({
  type: 'Warning',
  reason: 'PinnedBehindHead',
  message: `${pinnedMessage}: ${request.reason ?? 'this reconcile'} applied the pin, not ${reference}; \`${unpinHint(request.track)}\` follows it again`,
});

/**
 * The Events a finished reconcile records on its track: failures and ownership conflicts always;
 * success when something changed or the track was not Ready; prune and drift when they happened;
 * stale objects whose type is not served (not pruned) when that begins.
 * A reconcile that changed nothing on a Ready track records nothing, so sweeps do not flood the
 * event stream.
 */
export function trackEvents(
  track: TrackObject,
  request: Pick<ReconcileRequest, 'reason'>,
  summary: ReconcileSummary,
  finished: Exclude<Finished, 'aborted'>,
  readyMessage: string,
  lastApplied: string | undefined,
): TrackEvent[] {
  const { changes } = summary;
  const previousReady = track.status?.conditions?.find((c) => c.type === 'Ready');
  const because = why(request.reason);
  const { applied, inSync, ignored, pruned, drifted, conflicts } = summary.counts;
  const events: TrackEvent[] = [];
  if (finished === 'suspended') {
    if (previousReady?.reason !== 'Suspended')
      events.push({ type: 'Normal', reason: 'Suspended', message: readyMessage });
  } else if (finished === 'waiting') {
    if (previousReady?.reason !== 'DependencyNotReady')
      events.push({ type: 'Normal', reason: 'DependencyNotReady', message: `${readyMessage}${because}` });
  } else if (finished === 'continuing') {
    events.push({ type: 'Normal', reason: 'ReconcileContinuing', message: `${readyMessage}${because}` });
  } else if (finished === 'failed' && summary.errors.length > 0) {
    events.push({
      type: 'Warning',
      reason: 'ReconcileFailed',
      message: `${summary.commit ?? track.spec.reference}${because}: ${readyMessage}`,
    });
  } else if (
    finished === 'succeeded' &&
    (applied + pruned > 0 ||
      previousReady?.status !== 'True' ||
      lastApplied !== track.status?.lastAppliedCommit)
  ) {
    events.push({
      type: 'Normal',
      reason: 'ReconcileSucceeded',
      message: `${summary.commit}${because}: ${applied} applied, ${inSync} in sync, ${ignored} ignored, ${pruned} pruned`,
    });
  }
  if (conflicts > 0) {
    const held = changes.filter((c) => c.action === 'conflict');
    events.push({
      type: 'Warning',
      reason: 'OwnershipConflict',
      message: `${conflicts} objects owned elsewhere, not applied: ${listed(held, (c) => c.message ?? c.subject)}`,
    });
  }
  if (pruned > 0) {
    const gone = changes.filter((c) => c.action === 'deleted' || c.action === 'orphaned');
    events.push({
      type: 'Normal',
      reason: 'Pruned',
      message: `pruned ${pruned}: ${listed(gone, (c) => c.subject)}`,
    });
  }
  // Said once while it lasts: a sweep of a track whose API stays down does not repeat it.
  const unserved = changes.filter((c) => c.action === 'unavailable');
  const previousPruned = track.status?.conditions?.find((c) => c.type === 'Pruned');
  if (unserved.length > 0 && previousPruned?.reason !== 'TypeUnavailable') {
    events.push({
      type: 'Warning',
      reason: 'PruneUnavailable',
      message: `not pruned ${unserved.length}, their type not served now (tracking objects kept): ${listed(unserved, (c) => c.subject)}`,
    });
  }
  if (drifted > 0) {
    const fixed = changes.filter((c) => c.drifted);
    events.push({
      type: 'Normal',
      reason: 'Drifted',
      message: `re-applied ${drifted} drifted objects: ${listed(fixed, (c) => `${c.subject} (${c.message})`)}`,
    });
  }
  return events;
}
