import { isLeaseLost } from '../errors';
import { requestedAtAnnotation } from '../manifests/metadataKeys';
import type { PlannedObject } from '../plan/plannedObject';
import type { TrackerStatusModes } from '../tracker/patchTrackerStatus';
import type { TrackerConditions } from '../tracker/writtenConditions';
import { withDelivery } from './deliveryServed';
import { deployedOf } from './deployedOf';
import { type FetchBackoff, fetchBackoffMessage, nextFetchBackoff, readFetchBackoff } from './fetchBackoff';
import type { TrackObject } from './loadTrack';
import { trackPath } from './loadTrack';
import type { ReconcileDeps } from './reconcile';
import { recordEvent } from './recordEvent';
import { trackEvents } from './trackEvents';
import { type ConditionInput, type ConditionType, mergeConditions, trackStatusBody } from './trackStatus';
import type {
  Change,
  DependencyWait,
  HealthSummary,
  IgnoredManifest,
  PinReport,
  ReconcileRequest,
  ReconcileSummary,
} from './types';

/** What a reconcile gathered on its way, for the summary, the status and the events. */
export interface ReconcileRun {
  deps: ReconcileDeps;
  request: ReconcileRequest;
  track: TrackObject;
  started: number;
  /** When the time budget runs out (epoch ms); undefined: no limit. */
  deadline?: number | undefined;
  writesBefore: number;
  /** Writes to the track itself (events) made before finishing, not counted as object writes. */
  trackWrites: number;
  commit?: string;
  conditions: Partial<Record<ConditionType, ConditionInput>>;
  changes: Change[];
  ignored: IgnoredManifest[];
  errors: string[];
  discovered: number;
  /** The track's pin and head, when it is pinned (lib/reconcile/reportPin). */
  pin?: PinReport;
  /** The commit's objects for this track (planned or failed in partition), once partitioned. */
  planned?: number;
  /** Set when the time budget ran out before every object was taken: how far the run got. */
  continuing?: { applied: number; of: number };
  /** Set when the fetch failed with a GitFetchError: the git server's or repository's failure. */
  fetchFailed?: boolean;
  /** Set when the commit does not parse (later: render): nothing of it is applied or pruned. */
  broken?: 'ParseFailed' | 'BuildFailed';
  /** How the server takes tracking objects' status (read with the run's discovery). */
  trackerStatusModes?: TrackerStatusModes;
  /** The tracking objects' conditions after the apply, when it knows them all (for the health step). */
  trackerConditions?: TrackerConditions | undefined;
  /** The commit's objects the ownership table accepted, once partitioned (for the health step). */
  plannedObjects?: readonly PlannedObject[];
  /** The children's health after apply (lib/health), when it was assessed. */
  health?: HealthSummary;
  /** `Healthy` conditions the health step rewrote (counted apart from object writes). */
  healthWrites?: number;
  /** Set when spec.dependsOn held the run back (lib/depends): nothing fetched, applied or pruned. */
  dependencies?: {
    reason: 'DependencyNotReady' | 'DependencyRefused' | 'DependencyCycle';
    message: string;
    waitingFor?: DependencyWait[];
  };
}

const count = (changes: Change[], ...actions: Change['action'][]) =>
  changes.filter((c) => actions.includes(c.action)).length;

const results = {
  succeeded: 'Succeeded',
  failed: 'Failed',
  suspended: 'Suspended',
  aborted: 'Aborted',
  continuing: 'Continuing',
  waiting: 'Waiting',
} as const;

type Finished = keyof typeof results;

/**
 * Builds the summary, then writes the track's status and events. A run that lost its lease
 * (`aborted`, or found so by the guard here) writes no status: the newer holder owns it.
 */
export async function finishReconcile(run: ReconcileRun, finished: Finished): Promise<ReconcileSummary> {
  const { client } = run.deps;
  const outcome = finished === 'aborted' || (await leaseLost(run)) ? 'aborted' : finished;
  const { track, changes } = run;
  const healthWrites = run.healthWrites ?? 0;
  const objectWrites = client.stats.writes - run.writesBefore - run.trackWrites - healthWrites;
  const pruned = count(changes, 'deleted', 'orphaned');
  const summary: ReconcileSummary = {
    track: run.request.track,
    mode: run.request.mode ?? 'apply',
    result: results[outcome],
    ...(run.commit ? { commit: run.commit } : {}),
    reference: run.request.commit ?? track.spec.reference,
    ...(run.commit && outcome !== 'suspended'
      ? { deployed: deployedOf(changes, run.broken ? run.discovered : run.planned, run.broken !== undefined) }
      : {}),
    durationMs: 0,
    counts: {
      discovered: run.discovered,
      applied: count(changes, 'created', 'configured'),
      inSync: count(changes, 'created', 'configured', 'unchanged', 'skipped'),
      ignored: run.ignored.length,
      failed: count(changes, 'failed'),
      conflicts: count(changes, 'conflict'),
      pruned,
      unavailable: count(changes, 'unavailable'),
      drifted: changes.filter((c) => c.drifted).length,
    },
    changes,
    ignored: run.ignored,
    errors: run.errors,
    writes: { objects: objectWrites, health: healthWrites, status: 0 },
    ...(run.pin ? { pin: run.pin } : {}),
    ...(run.health ? { health: run.health } : {}),
    ...(run.dependencies ? { heldBack: run.dependencies.reason } : {}),
    ...(run.dependencies?.waitingFor ? { waitingFor: run.dependencies.waitingFor } : {}),
  };
  if (outcome === 'aborted') return aborted(run, summary);

  const now = new Date().toISOString();
  const fetchBackoff = fetchBackoffAfter(run, new Date(now));
  if (fetchBackoff) summary.fetchBackoff = fetchBackoff;
  let ready: ConditionInput;
  if (run.dependencies) {
    ready = { status: 'False', reason: run.dependencies.reason, message: run.dependencies.message };
  } else if (outcome === 'suspended') {
    ready = { status: 'False', reason: 'Suspended', message: 'spec.suspend is true: nothing was reconciled' };
  } else if (outcome === 'continuing') {
    ready = {
      status: 'False',
      reason: 'Progressing',
      message: run.conditions.Applied?.message ?? `applying ${run.commit}, continuing`,
    };
  } else if (outcome === 'succeeded') {
    ready = { status: 'True', reason: 'ReconciliationSucceeded', message: `applied ${run.commit}` };
  } else {
    const conflicts = changes.filter((c) => c.action === 'conflict').map((c) => c.message ?? c.subject);
    const listed = [
      ...(run.broken ? [`nothing of ${run.commit} applied:`] : []),
      ...run.errors,
      ...conflicts,
    ];
    ready = {
      status: 'False',
      // Conflicts alone say who must act: the owner of the other track, not this one.
      reason:
        run.broken ??
        (run.errors.length === 0 && conflicts.length > 0 ? 'OwnershipConflict' : 'ReconciliationFailed'),
      message: [...listed.slice(0, 20), ...(fetchBackoff ? [fetchBackoffMessage(fetchBackoff)] : [])].join(
        '\n',
      ),
    };
  }
  const conditions = mergeConditions(track, { ...run.conditions, Ready: ready }, now);
  const lastApplied = outcome === 'succeeded' ? run.commit : track.status?.lastAppliedCommit;
  const events = trackEvents(run, summary, outcome, ready.message, lastApplied);

  const before = client.stats.writes;
  const body =
    outcome === 'suspended' || run.dependencies
      ? { status: { conditions, lastSyncTime: now, observedGeneration: track.metadata.generation ?? 0 } }
      : trackStatusBody(track, summary, conditions, now, lastApplied);
  const delivery = run.request.delivery;
  if (delivery) {
    const previous = (track.status as { recentDeliveries?: string[] } | undefined)?.recentDeliveries;
    (body.status as Record<string, unknown>).recentDeliveries = withDelivery(previous, delivery);
  }
  // In the same write: one more fetch failure, or null (deleted by the merge patch) once fetched.
  if (fetchBackoff !== undefined) (body.status as Record<string, unknown>).fetchBackoff = fetchBackoff;
  const requestedAt = (track.metadata as { annotations?: Record<string, string> }).annotations?.[
    requestedAtAnnotation
  ];
  if (requestedAt) (body.status as Record<string, unknown>).lastHandledRequestedAt = requestedAt;
  await client.request('PATCH', trackPath(run.request.track, 'status'), {
    body,
    contentType: 'application/merge-patch+json',
    subject: `${track.kind}/${track.metadata.name}`,
  });
  await Promise.all(
    events.map((ev) => recordEvent(client, track, ev.type, ev.reason, ev.message).catch(() => {})),
  );
  summary.writes.status = client.stats.writes - before + run.trackWrites;
  summary.durationMs = Date.now() - run.started;
  return summary;
}

/**
 * `status.fetchBackoff` after this run: one more consecutive failure when the fetch failed, null
 * (cleared) when it fetched after failures, undefined (left as it is) when nothing was fetched.
 */
function fetchBackoffAfter(run: ReconcileRun, now: Date): FetchBackoff | null | undefined {
  const previous = readFetchBackoff(run.track.status);
  if (run.fetchFailed) return nextFetchBackoff(previous, now);
  return previous && run.conditions.Fetched?.status === 'True' ? null : undefined;
}

async function leaseLost(run: ReconcileRun): Promise<boolean> {
  try {
    await run.deps.guard?.();
    return false;
  } catch (e) {
    if (!isLeaseLost(e)) throw e;
    run.errors.push(e.message);
    return true;
  }
}

/** A run that stopped: one Warning event says why; the status is left to the lease's new holder. */
async function aborted(run: ReconcileRun, summary: ReconcileSummary): Promise<ReconcileSummary> {
  const { client } = run.deps;
  const before = client.stats.writes;
  const message = `reconcile${run.commit ? ` of ${run.commit}` : ''} stopped: ${run.errors.at(-1)}`;
  await recordEvent(client, run.track, 'Warning', 'ReconcileAborted', message).catch(() => {});
  summary.writes.status = client.stats.writes - before + run.trackWrites;
  summary.durationMs = Date.now() - run.started;
  return summary;
}
