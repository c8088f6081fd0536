import pLimit from 'p-limit';
import { isNotFound } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import { trackUidLabel } from '../manifests/metadataKeys';
import type { TrackOwner } from '../ownership/ownershipTable';
import type { PlannedObject } from '../plan/plannedObject';
import { type LiveTracker, listTrackers, trackerKey } from '../tracker/liveTracker';

/** Past this many objects one LIST of every tracking object costs less than a GET of each. */
export const maxTrackerGets = 500;

/**
 * The tracking objects of `planned` (by the names the ownership table gives them), keyed like
 * listTrackers: a GET of each instead of a LIST of the whole track, for an incremental run. What the
 * LIST's label selector leaves out is left out here too: a tracking object without this track's
 * label, one being deleted, and for a GitTrack anything outside its namespace. Past
 * `maxTrackerGets` objects the LIST is read instead and narrowed to them. Throws an API failure.
 */
export async function getTrackers(
  client: KubeClient,
  track: TrackOwner,
  planned: readonly PlannedObject[],
  concurrency: number,
): Promise<Map<string, LiveTracker>> {
  const wanted = new Map<string, PlannedObject['decision']>();
  for (const { decision } of planned) {
    if (
      track.kind === 'GitTrack' &&
      (decision.tracker !== 'GitTrackObject' || decision.namespace !== track.namespace)
    )
      continue;
    wanted.set(trackerKey(decision.tracker, decision.namespace, decision.trackerName), decision);
  }
  const found = new Map<string, LiveTracker>();
  if (wanted.size > maxTrackerGets) {
    for (const [key, t] of await listTrackers(client, track)) if (wanted.has(key)) found.set(key, t);
    return found;
  }
  const limit = pLimit(concurrency);
  await Promise.all(
    [...wanted.entries()].map(([key, d]) =>
      limit(async () => {
        const r = lightkeeperResources[d.tracker];
        const path = resourcePath({
          ...r,
          namespace: r.namespaced ? d.namespace : undefined,
          name: d.trackerName,
        });
        let item: LiveTracker & { metadata: { labels?: Record<string, string> } };
        try {
          item = await client.get(path);
        } catch (e) {
          if (isNotFound(e)) return;
          throw e;
        }
        if (item.metadata.labels?.[trackUidLabel] !== track.uid || item.metadata.deletionTimestamp) return;
        found.set(key, { ...item, kind: d.tracker });
      }),
    ),
  );
  return found;
}
