import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import type { ReconcileSummary } from '../reconcile/types';

/**
 * The runs a sharded apply starts next (pure): one event per shard the run claimed, carrying keys
 * only (track, commit, shard id, plan digest: an async invoke payload is limited to 1 MB, so never
 * the manifests); and, from the shard that recorded the last success, the run that completes the
 * commit: a continuation of it, which finds every object in sync and prunes once (or stands down if
 * another commit was attempted meanwhile).
 */
export function shardEvents(event: ReconcileEvent, summary: ReconcileSummary): ReconcileEvent[] {
  const shards = summary.shards;
  const commit = summary.commit;
  if (!shards || commit === undefined || summary.result === 'Aborted') return [];
  const push = event.push ? { push: event.push } : {};
  const started = shards.started.map(
    (id): ReconcileEvent => ({
      track: event.track,
      commit,
      mode: event.mode,
      // The same shard again: it ran out of time (lib/reconcile/shardRecord.ts).
      reason: `shard ${id} of ${commit}${id === event.shard?.id ? ', continued' : ''}`,
      shard: { id, planDigest: shards.planDigest },
    }),
  );
  const complete: ReconcileEvent[] = shards.complete
    ? [
        {
          track: event.track,
          commit,
          continuation: true,
          mode: event.mode,
          reason: `shards of ${commit} done`,
          ...push,
        },
      ]
    : [];
  return [...started, ...complete];
}
