// The words of a run's health and of what it skipped for safety: the track's `Healthy` condition,
// the Ready condition of a run that waited for health and saw it fail, and of a run that skipped
// manifests the track may not apply. Only conditions.ts and conclude.ts call these.

import type { HealthFinding, TrackHealth } from '../health/summarizeHealth';
import type { IgnoredManifest } from '../plan/planManifests';
import type { TrackObject } from '../track/trackObject';
import type { ConditionInput } from './conditionInput';
import type { RunOutcomes } from './outcomes';

/** Objects named in a condition or Event before the rest are counted. */
const skipsListed = 5;

/**
 * The track's `Healthy` condition: counts, the first children not healthy (failed first), the rest
 * counted. A commit with nothing of the track in the cluster is `True` with reason `NoObjects`
 * (nothing can be unhealthy, as Flux's wait passes on an empty set), never "healthy 0 of 0".
 */
export function healthyCondition(health: TrackHealth, finding: HealthFinding): ConditionInput {
  if (finding.total === 0)
    return { status: 'True', reason: 'NoObjects', message: 'no objects of this track to assess' };
  const lines = [
    `healthy ${health.healthy} of ${finding.total}` +
      (health.progressing ? `, progressing ${health.progressing}` : '') +
      (health.failed ? `, failed ${health.failed}` : ''),
    ...health.unhealthy,
    ...(finding.more > 0 ? [`…and ${finding.more} more`] : []),
    ...(finding.newerRun ? ['stopped waiting: a newer reconcile of this track is queued'] : []),
  ];
  const message = lines.join('\n');
  if (health.failed > 0)
    return {
      status: 'False',
      reason: finding.allTimedOut ? 'HealthCheckTimeout' : 'HealthCheckFailed',
      message,
    };
  if (health.progressing > 0) return { status: 'Unknown', reason: 'Progressing', message };
  return { status: 'True', reason: 'Healthy', message };
}

/**
 * With spec.healthTimeout the run waited for health (as Flux's `wait`): children that failed or
 * timed out fail the run. The `Healthy` condition's words; undefined when health does not gate the
 * run (no healthTimeout: observed only) or nothing failed.
 */
export function healthFailure(o: RunOutcomes, track: TrackObject): ConditionInput | undefined {
  if (!track.spec.healthTimeout || o.health?.state !== 'assessed' || o.health.health.failed === 0)
    return undefined;
  return healthyCondition(o.health.health, o.health.finding);
}

/** The Ready condition of a commit applied in full whose health check failed. */
export const healthFailedReady = (commit: string | undefined, healthy: ConditionInput): ConditionInput => ({
  status: 'False',
  reason: 'HealthCheckFailed',
  message: `applied ${commit}; health check failed: ${healthy.message}`,
});

/** The run's error for a failed health check: the children named, on one line. */
export const healthError = (healthy: ConditionInput): string =>
  `health check failed: ${healthy.message.split('\n').join('; ')}`;

/** `object (reason)`: the first few skipped manifests, the rest counted. */
export function skippedList(ignored: readonly IgnoredManifest[], separator: string): string {
  const named = ignored.slice(0, skipsListed).map((i) => `${i.object ?? i.path} (${i.reason})`);
  const more = ignored.length - named.length;
  return [...named, ...(more > 0 ? [`…and ${more} more`] : [])].join(separator);
}

/**
 * The Ready condition of a run that succeeded but skipped manifests the track may not apply (another
 * namespace, a cluster-scoped object for a GitTrack): still True, the skip said in its reason.
 */
export const succeededWithSkipsReady = (
  commit: string | undefined,
  ignored: readonly IgnoredManifest[],
): ConditionInput => ({
  status: 'True',
  reason: 'ReconciliationSucceededWithSkips',
  message: `applied ${commit}; skipped ${ignored.length} objects this track may not apply:\n${skippedList(ignored, '\n')}`,
});
