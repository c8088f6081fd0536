import type { Change } from '../apply/change';
import { isLightkeeperError } from '../errors';
import { type AssessHealthOptions, assessTrackHealth } from '../health/assessTrackHealth';
import type { HealthTarget } from '../health/readHealthTargets';
import { clientAs, trackIdentity } from '../identity/trackIdentity';
import { parseDuration } from '../kstatus/parseDuration';
import { trackOwner } from '../ownership/trackOwner';
import { trackLabel } from '../track/trackRef';
import type { PhaseContext } from './applyPhase';
import { hookTimeoutMs } from './hookPhase';
import type { ApplyOutcome, HealthOutcome, PlanOutcome } from './outcomes';

const applied = new Set(['created', 'configured']);
const present = new Set(['created', 'configured', 'unchanged', 'skipped']);

/** What a run adds to the health step. */
export interface HealthExtras {
  /** A chart's post hooks are due: wait for health (spec.healthTimeout, else the hook timeout) before them. */
  forPostHooks?: boolean;
  /** How the targets are read (an incremental run: a GET each of the changed objects). */
  readTargets?: AssessHealthOptions['readTargets'];
}

/**
 * The health step of a reconcile, after apply and prune (so it never changes what is pruned):
 * the children of the commit that are in the cluster, assessed (and, with spec.healthTimeout,
 * waited for) as the track's identity. A failure to read is unknown health, never a failed run.
 * `writes`: the tracking objects' `Healthy` conditions rewritten.
 */
export async function assessHealth(
  { deps, track, deadline }: PhaseContext,
  plan: PlanOutcome,
  changes: readonly Change[],
  apply: Pick<ApplyOutcome, 'statusModes' | 'trackerConditions'>,
  extras: HealthExtras = {},
): Promise<{ outcome: HealthOutcome; writes: number }> {
  const actions = new Map(changes.map((c) => [c.subject, c.action]));
  const now = Date.now();
  const targets: HealthTarget[] = plan.planned
    .filter((p) => present.has(actions.get(p.subject) ?? ''))
    .map((p) => ({ planned: p, ...(applied.has(actions.get(p.subject) ?? '') ? { appliedAt: now } : {}) }));
  const timeout = track.spec.healthTimeout;
  const owner = trackOwner(track);
  try {
    const assessed = await assessTrackHealth({
      client: deps.client,
      childClient: clientAs(deps.client, trackIdentity(track, deps.config)),
      track: owner,
      targets,
      statusModes: apply.statusModes,
      trackers: apply.trackerConditions,
      timeoutMs: timeout
        ? parseDuration(timeout, `${trackLabel(owner)} spec.healthTimeout`)
        : extras.forPostHooks
          ? hookTimeoutMs
          : undefined,
      deadline,
      newerRun: deps.newerRunQueued,
      ...(extras.readTargets ? { readTargets: extras.readTargets } : {}),
    });
    const health = {
      ...assessed.health,
      of: targets.length,
      ...(assessed.waited ? { waited: assessed.waited } : {}),
    };
    return {
      outcome: { state: 'assessed', health, finding: assessed.finding },
      writes: assessed.written,
    };
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    return { outcome: { state: 'unknown', error: e.message }, writes: 0 };
  }
}
