import type { ObjectCondition } from '../kstatus/fields';
import { type Health, inProgress } from '../kstatus/health';
import { type HealthVerdict, healthVerdict, verdictChanged } from '../kstatus/healthVerdict';
import { objectHealth } from '../kstatus/objectHealth';
import type { KubeClient } from '../kube/kubeClient';
import type { TrackOwner } from '../ownership/ownershipTable';
import { type PlannedObject, typeKey } from '../plan/plannedObject';
import { healthyCondition, healthyOf } from '../tracker/healthyCondition';
import { type LiveTracker, listTrackers, trackerKey } from '../tracker/liveTracker';
import { patchTrackerStatus, type TrackerStatusModes } from '../tracker/patchTrackerStatus';
import type { TrackerConditions } from '../tracker/writtenConditions';
import { type HealthTarget, type LiveForHealth, readHealthTargets } from './readHealthTargets';
import { type HealthFinding, summarizeHealth, type TrackHealth } from './summarizeHealth';
import { type WaitEnd, waitForHealth } from './waitForHealth';

export interface AssessHealthOptions {
  /** The reconciler: writes the tracking objects' `Healthy` conditions. */
  client: KubeClient;
  /** The track's identity (lib/identity): reads the children. */
  childClient: KubeClient;
  track: TrackOwner;
  targets: readonly HealthTarget[];
  /** How the server takes tracking objects' status (lib/tracker/patchTrackerStatus.ts). */
  statusModes: TrackerStatusModes;
  /** The tracking objects' conditions as the apply left them; undefined: they are listed. */
  trackers?: TrackerConditions | undefined;
  /** spec.healthTimeout in ms; undefined: assess once, never wait. */
  timeoutMs?: number | undefined;
  /** The run's time budget (epoch ms): a wait never goes past it. */
  deadline?: number | undefined;
  /** True when a newer reconcile of the track is queued: the wait stops at once. */
  newerRun?: (() => Promise<boolean>) | undefined;
  /** How the children are read (default readHealthTargets: one LIST per type). */
  readTargets?: typeof readHealthTargets;
}

export interface AssessedHealth {
  health: TrackHealth;
  finding: HealthFinding;
  /** Set when the run waited: why the wait ended and how long it took. */
  waited?: { end: WaitEnd; ms: number };
  /** Tracking objects whose `Healthy` condition was rewritten. */
  written: number;
}

const healthOf = (live: LiveForHealth, p: PlannedObject, now: number): Health => {
  const problem = live.unreadable.get(typeKey(p.resource));
  if (problem) return inProgress('HealthUnreadable', `its status could not be read: ${problem}`);
  return objectHealth(live.objects.get(p.key), now);
};

/**
 * Assesses the health of a track's children after an apply: waits (within spec.healthTimeout and
 * the run's time budget) for the children this run changed, then records each child's verdict on
 * its tracking object, writing only those that changed, and returns the track's totals.
 */
export async function assessTrackHealth(options: AssessHealthOptions): Promise<AssessedHealth> {
  const { targets, timeoutMs } = options;
  const read = () => (options.readTargets ?? readHealthTargets)(options.childClient, options.track, targets);
  const changed = targets.filter((t) => t.appliedAt !== undefined);
  let live: LiveForHealth;
  let waited: AssessedHealth['waited'];
  if (timeoutMs !== undefined && timeoutMs > 0 && changed.length > 0) {
    const started = Date.now();
    const timeoutAt = Math.min(...changed.map((t) => (t.appliedAt as number) + timeoutMs));
    const until = options.deadline === undefined ? timeoutAt : Math.min(timeoutAt, options.deadline);
    const result = await waitForHealth({
      look: async () => {
        const state = await read();
        const now = Date.now();
        return { state, health: changed.map((t) => healthOf(state, t.planned, now)) };
      },
      until,
      newerRun: options.newerRun,
    });
    live = result.state;
    waited = { end: result.end, ms: Date.now() - started };
  } else {
    live = await read();
  }

  const trackers: TrackerConditions = options.trackers ?? (await listTrackers(options.client, options.track));
  const now = Date.now();
  let written = 0;
  const verdicts = await Promise.all(
    targets.map(async (t) => {
      const p = t.planned;
      const tracker = trackers.get(
        trackerKey(p.decision.tracker, p.decision.namespace, p.decision.trackerName),
      );
      const previous = healthyOf(tracker?.status?.conditions);
      const verdict = healthVerdict(healthOf(live, p, now), {
        timeoutMs,
        previous,
        appliedAt: t.appliedAt,
        now,
      });
      if (tracker && verdictChanged(verdict, previous)) {
        await writeHealthy(options, p, tracker, verdict, previous, new Date(now).toISOString());
        written++;
      }
      return { subject: p.subject, verdict };
    }),
  );
  const { health, finding } = summarizeHealth(verdicts, waited?.end === 'newerRun');
  return { health, finding, written, ...(waited ? { waited } : {}) };
}

/** Rewrites the tracking object's `Healthy` condition, keeping its other conditions as they are. */
function writeHealthy(
  { client, statusModes }: Pick<AssessHealthOptions, 'client' | 'statusModes'>,
  p: PlannedObject,
  tracker: Pick<LiveTracker, 'status'>,
  verdict: HealthVerdict,
  previous: ObjectCondition | undefined,
  now: string,
) {
  const others = (tracker.status?.conditions ?? []).filter((c) => c.type !== 'Healthy');
  const healthy = healthyCondition(verdict, previous, now);
  return patchTrackerStatus(client, p, { conditions: [...others, healthy] }, statusModes);
}
