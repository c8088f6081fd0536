import { isLightkeeperError } from '../errors';
import { assessTrackHealth } from '../health/assessTrackHealth';
import { parseDuration } from '../health/parseDuration';
import type { HealthTarget } from '../health/readHealthTargets';
import { clientAs, trackIdentity } from '../identity/trackIdentity';
import { trackOwner } from '../ownership/trackOwner';
import { trackLabel } from '../track/trackRef';
import type { ReconcileRun } from './finishReconcile';

const applied = new Set(['created', 'configured']);
const present = new Set(['created', 'configured', 'unchanged', 'skipped']);

/**
 * The health step of a reconcile, after apply and prune (so it never changes what is pruned):
 * the children of the commit that are in the cluster, assessed (and, with spec.healthTimeout,
 * waited for) as the track's identity; the verdict goes to `run.conditions.Healthy` and
 * `run.health`. A failure to read is reported as unknown health, never as a failed reconcile.
 */
export async function checkHealth(run: ReconcileRun): Promise<void> {
  const { deps, track } = run;
  if (!run.plannedObjects || !run.trackerStatusModes) return;
  const actions = new Map(run.changes.map((c) => [c.subject, c.action]));
  const now = Date.now();
  const targets: HealthTarget[] = run.plannedObjects
    .filter((p) => present.has(actions.get(p.subject) ?? ''))
    .map((p) => ({ planned: p, ...(applied.has(actions.get(p.subject) ?? '') ? { appliedAt: now } : {}) }));
  const subject = `${trackLabel(run.request.track)} spec.healthTimeout`;
  const timeout = track.spec.healthTimeout;
  try {
    const assessed = await assessTrackHealth({
      client: deps.client,
      childClient: clientAs(deps.client, trackIdentity(track, deps.config)),
      track: trackOwner(track),
      targets,
      statusModes: run.trackerStatusModes,
      trackers: run.trackerConditions,
      timeoutMs: timeout ? parseDuration(timeout, subject) : undefined,
      deadline: run.deadline,
      newerRun: deps.newerRunQueued,
    });
    run.health = {
      ...assessed.health,
      of: targets.length,
      ...(assessed.waited ? { waited: assessed.waited } : {}),
    };
    run.conditions.Healthy = assessed.condition;
    run.healthWrites = assessed.written;
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    run.conditions.Healthy = { status: 'Unknown', reason: 'HealthUnknown', message: e.message };
  }
}
