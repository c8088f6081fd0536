import type { Change } from '../apply/change';
import { collapseForbidden } from '../identity/forbiddenFix';
import type { FetchBackoff, TrackObject } from '../track/trackObject';
import {
  applyConditions,
  type Conditions,
  dependencyRefusal,
  healthFailure,
  pinnedCondition,
  pinReport,
  readyCondition,
  sourceConditions,
} from './conditions';
import { healthError, pruneRefusal } from './conditionTexts';
import { withDelivery } from './deliveryServed';
import { deployedOf } from './deployedOf';
import { nextFetchBackoff, readFetchBackoff } from './fetchBackoff';
import { hookErrors, hookedRevision } from './hookPhase';
import { countWholeTrack } from './incrementalCounts';
import {
  applyFailures,
  type Finished,
  isBroken,
  isContinuing,
  type RunOutcomes,
  runChanges,
} from './outcomes';
import { renderEvents } from './renderEvents';
import { requestedAtEvents } from './requestedAtEvents';
import { skippedEvents } from './skippedEvents';
import {
  abortedEvent,
  pinnedBehindHeadEvent,
  shardsStuckEvent,
  type TrackEvent,
  trackEvents,
} from './trackEvents';
import { handledRequest, mergeConditions, trackStatusBody } from './trackStatus';
import type { ReconcileSummary } from './types';

/** What a run comes to: its summary, the status to write (none when it stopped) and its Events. */
export interface Conclusion {
  summary: ReconcileSummary;
  /** The merge patch of the track's status; undefined for an `Aborted` run (the lease's new holder owns it). */
  status?: { status: Record<string, unknown> };
  events: TrackEvent[];
}

const results = {
  succeeded: 'Succeeded',
  failed: 'Failed',
  suspended: 'Suspended',
  aborted: 'Aborted',
  continuing: 'Continuing',
  waiting: 'Waiting',
} as const;

const count = (changes: Change[], ...actions: Change['action'][]) =>
  changes.filter((c) => actions.includes(c.action)).length;

/**
 * The one decision of a run (pure): from the phases' outcomes and the track as the run read it,
 * the result, the summary, the conditions and the Events. `now` stamps the status.
 */
export function conclude(o: RunOutcomes, track: TrackObject, now: Date): Conclusion {
  const ownErrors = collapseForbidden(runErrors(o), o.request.track);
  const changes = runChanges(o);
  const merits = finishedAs(o, ownErrors, changes);
  // A commit applied in full fails its health check only when the run waited for it (spec.healthTimeout).
  const healthFailed = merits === 'succeeded' ? healthFailure(o, track) : undefined;
  const finished = healthFailed ? 'failed' : merits;
  const errors = [...ownErrors, ...(healthFailed ? [healthError(healthFailed)] : [])];
  const commit = o.source && 'commit' in o.source ? o.source.commit : undefined;
  const summary = summarize(o, track, finished, { commit, errors, changes });
  if (o.incremental && !isBroken(o)) countWholeTrack(summary, o.incremental, track);
  const pinned = pinnedCondition(o, track);
  const report = pinReport(o);
  const pinEvents =
    o.choice?.followsPin && report?.head !== undefined && report.head !== report.commit && pinned
      ? [pinnedBehindHeadEvent(pinned.message, o.request, track.spec.reference)]
      : [];
  if (finished === 'aborted') return { summary, events: [...pinEvents, abortedEvent(summary)] };

  const fetchBackoff = fetchBackoffAfter(o, track, now);
  if (fetchBackoff) summary.fetchBackoff = fetchBackoff;
  const phases: Conditions = {
    ...(pinned ? { Pinned: pinned } : {}),
    ...sourceConditions(o, track),
    ...(commit && !isBroken(o) ? applyConditions(o, commit) : {}),
  };
  const ready = readyCondition(
    o,
    finished,
    { commit, errors, changes, applied: phases.Applied, healthFailed },
    fetchBackoff,
  );
  const stamp = now.toISOString();
  const conditions = mergeConditions(track, { ...phases, Ready: ready }, stamp);
  // Unhealthy, the commit still runs in full: it is the last applied (its health is in Ready and Healthy).
  const appliedNow = finished === 'succeeded' || healthFailed !== undefined;
  const lastApplied = appliedNow ? commit : track.status?.lastAppliedCommit;
  const appliedGeneration = appliedNow
    ? (track.metadata.generation ?? 0)
    : track.status?.lastAppliedGeneration;
  const events = [
    ...pinEvents,
    ...trackEvents(track, o.request, summary, finished, ready.message, lastApplied),
    ...skippedEvents(track, summary, ready),
    ...renderEvents(track, phases.Parsed),
    ...requestedAtEvents(track),
    ...(commit && o.shards?.stuck?.length ? [shardsStuckEvent(commit, o.shards.stuck)] : []),
  ];
  const body =
    finished === 'suspended' || o.dependencies
      ? {
          status: {
            conditions,
            lastSyncTime: stamp,
            observedGeneration: track.metadata.generation ?? 0,
            // Answered (suspended, or waiting on its dependencies): the every-minute check stops asking.
            ...handledRequest(track),
          },
        }
      : trackStatusBody(track, summary, conditions, stamp, lastApplied, appliedGeneration);
  const status: Record<string, unknown> = body.status;
  // An incremental run judged only the objects it changed: `status.health` stays the whole runs'.
  if (o.incremental) delete status.health;
  const delivery = o.request.delivery;
  if (delivery) status.recentDeliveries = withDelivery(track.status?.recentDeliveries, delivery);
  // In the same write: one more fetch failure, or null (deleted by the merge patch) once fetched.
  if (fetchBackoff !== undefined) status.fetchBackoff = fetchBackoff;
  const hooked = hookedRevision(o, finished === 'succeeded');
  if (hooked !== undefined) status.helmHooksRevision = hooked;
  return { summary, status: { status }, events };
}

/** How the run ends: stopped, suspended, held back, out of time, or succeeded / failed on its merits. */
function finishedAs(o: RunOutcomes, errors: string[], changes: Change[]): Finished {
  if (o.superseded !== undefined || o.leaseLost !== undefined) return 'aborted';
  if (o.suspended) return 'suspended';
  if (o.dependencies) return o.dependencies.state === 'waiting' ? 'waiting' : 'failed';
  if (isContinuing(o) && errors.length === 0) return 'continuing';
  // A conflict is no error (it does not stop the prune), but the commit is not fully applied.
  return errors.length === 0 && !changes.some((c) => c.action === 'conflict') ? 'succeeded' : 'failed';
}

/**
 * The run's errors, each naming its file or object, in the order they happened: fetch, parse,
 * apply and prune failures, the API server failing mid-way, the lease lost. Ownership conflicts
 * are not errors (they are `conflict` changes): they do not stop the prune.
 */
function runErrors(o: RunOutcomes): string[] {
  const source = o.source;
  const sourceErrors = !source ? [] : source.state === 'read' ? source.errors : [source.error];
  const commit = source && 'commit' in source ? source.commit : '';
  const prune = o.prune;
  return [
    ...(o.superseded !== undefined ? [o.superseded] : []),
    ...(o.dependencies?.state === 'refused' ? [dependencyRefusal(o.dependencies).message] : []),
    ...sourceErrors,
    ...hookErrors(o.hooks),
    ...(o.apply ? applyFailures(o).map((c) => c.message ?? c.subject) : []),
    ...(prune?.state === 'refused' ? [pruneRefusal(prune.stale, commit)] : []),
    ...(prune?.state === 'pruned'
      ? prune.changes.filter((c) => c.action === 'failed').map((c) => c.message ?? c.subject)
      : []),
    ...(o.applyError !== undefined ? [o.applyError] : []),
    ...(o.leaseLost !== undefined ? [o.leaseLost] : []),
  ];
}

function summarize(
  o: RunOutcomes,
  track: TrackObject,
  finished: Finished,
  { commit, errors, changes }: { commit: string | undefined; errors: string[]; changes: Change[] },
): ReconcileSummary {
  const broken = isBroken(o);
  const discovered = o.source?.state === 'read' ? o.source.manifests.length : 0;
  const planned = o.plan ? o.plan.planned.length + o.plan.failed.length : undefined;
  const pin = pinReport(o);
  const held = o.dependencies;
  return {
    track: o.request.track,
    mode: o.request.mode ?? 'apply',
    result: results[finished],
    ...(commit ? { commit } : {}),
    reference: o.request.commit ?? track.spec.reference,
    ...(commit && finished !== 'suspended'
      ? { deployed: deployedOf(changes, broken ? discovered : planned, broken) }
      : {}),
    durationMs: 0,
    counts: {
      discovered,
      applied: count(changes, 'created', 'configured'),
      inSync: count(changes, 'created', 'configured', 'unchanged', 'skipped'),
      ignored: o.plan?.ignored.length ?? 0,
      failed: count(changes, 'failed'),
      conflicts: count(changes, 'conflict'),
      pruned: count(changes, 'deleted', 'orphaned'),
      unavailable: count(changes, 'unavailable'),
      drifted: changes.filter((c) => c.drifted).length,
    },
    changes,
    ignored: o.plan?.ignored ?? [],
    errors,
    writes: { ...o.writes },
    ...(pin ? { pin } : {}),
    ...(o.health?.state === 'assessed' ? { health: o.health.health } : {}),
    ...(held ? { heldBack: held.state === 'waiting' ? 'DependencyNotReady' : held.reason } : {}),
    ...(held?.state === 'waiting' ? { waitingFor: held.waiting } : {}),
    ...(o.shards ? { shards: o.shards } : {}),
  };
}

/**
 * `status.fetchBackoff` after this run: one more consecutive failure when the fetch failed, null
 * (cleared) when it fetched after failures, undefined (left as it is) when nothing was fetched.
 */
function fetchBackoffAfter(o: RunOutcomes, track: TrackObject, now: Date): FetchBackoff | null | undefined {
  const previous = readFetchBackoff(track.status);
  const source = o.source;
  if (source?.state === 'unfetched' && source.gitFailure) return nextFetchBackoff(previous, now);
  return previous && source !== undefined && source.state !== 'unfetched' ? null : undefined;
}
