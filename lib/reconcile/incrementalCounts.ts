import type { TrackObject } from '../track/trackObject';
import type { IncrementalOutcome } from './outcomes';
import type { Deployed, ReconcileSummary } from './types';

/**
 * The summary of an incremental run made to count the whole track, as a whole run at the same
 * commit would: what the changed files held at the last applied commit taken out of the track's
 * counters (as its last, successful, run recorded them), what they hold now put in. The objects
 * of the other files are counted in sync with the commit, as they were with the last applied one.
 * `applied`, `pruned`, `drifted`, `failed`, `conflicts` and the changes stay this run's own.
 */
export function countWholeTrack(
  summary: ReconcileSummary,
  inc: IncrementalOutcome,
  track: TrackObject,
): void {
  const status = track.status ?? {};
  const { counts } = summary;
  counts.discovered += (status.objectsDiscovered ?? 0) - inc.before.discovered;
  counts.ignored += (status.objectsIgnored ?? 0) - inc.before.ignored;
  const changed = new Set(inc.paths);
  summary.ignored = [...(status.ignored ?? []).filter((i) => !changed.has(i.path)), ...summary.ignored];
  const deployed = summary.deployed;
  if (!deployed || deployed.extent === 'broken') return;
  counts.inSync += inc.planned - deployed.of;
  summary.deployed = wholeTrackDeployed(deployed, inc);
}

/** How much of the commit the cluster runs, from what an incremental run applied of the changed files. */
export function wholeTrackDeployed(deployed: Deployed, inc: IncrementalOutcome): Deployed {
  if (deployed.extent === 'broken') return deployed;
  const objects = deployed.objects + inc.planned - deployed.of;
  return {
    extent: objects >= inc.planned ? 'full' : objects === 0 ? 'none' : 'partial',
    objects,
    of: inc.planned,
  };
}
