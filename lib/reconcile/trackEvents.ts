import type { Change } from '../apply/change';
import type { ReconcileRun } from './finishReconcile';
import type { EventReason } from './recordEvent';
import type { ReconcileSummary } from './types';

export interface TrackEvent {
  type: 'Normal' | 'Warning';
  reason: EventReason;
  message: string;
}

const listed = (changes: Change[], describe: (c: Change) => string) =>
  changes.slice(0, 20).map(describe).join(', ');

/**
 * The Events a finished reconcile records on its track: failures and ownership conflicts always;
 * success when something changed or the track was not Ready; prune and drift when they happened;
 * stale objects whose type is not served (not pruned) when that begins.
 * A reconcile that changed nothing on a Ready track records nothing, so sweeps do not flood the
 * event stream.
 */
export function trackEvents(
  run: ReconcileRun,
  summary: ReconcileSummary,
  outcome: 'succeeded' | 'failed' | 'suspended' | 'continuing' | 'waiting',
  readyMessage: string,
  lastApplied: string | undefined,
): TrackEvent[] {
  const { track, changes } = run;
  const previousReady = track.status?.conditions?.find((c) => c.type === 'Ready');
  const why = run.request.reason ? ` (${run.request.reason})` : '';
  const { applied, inSync, ignored, pruned, drifted, conflicts } = summary.counts;
  const events: TrackEvent[] = [];
  if (outcome === 'suspended') {
    if (previousReady?.reason !== 'Suspended')
      events.push({ type: 'Normal', reason: 'Suspended', message: readyMessage });
  } else if (outcome === 'waiting') {
    if (previousReady?.reason !== 'DependencyNotReady')
      events.push({ type: 'Normal', reason: 'DependencyNotReady', message: `${readyMessage}${why}` });
  } else if (outcome === 'continuing') {
    events.push({ type: 'Normal', reason: 'ReconcileContinuing', message: `${readyMessage}${why}` });
  } else if (outcome === 'failed' && run.errors.length > 0) {
    events.push({
      type: 'Warning',
      reason: 'ReconcileFailed',
      message: `${run.commit ?? track.spec.reference}${why}: ${readyMessage}`,
    });
  } else if (
    outcome === 'succeeded' &&
    (applied + pruned > 0 ||
      previousReady?.status !== 'True' ||
      lastApplied !== track.status?.lastAppliedCommit)
  ) {
    events.push({
      type: 'Normal',
      reason: 'ReconcileSucceeded',
      message: `${run.commit}${why}: ${applied} applied, ${inSync} in sync, ${ignored} ignored, ${pruned} pruned`,
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
