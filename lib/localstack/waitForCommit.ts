import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeClient } from '../kube/kubeClient';
import type { TrackRef } from '../track/trackRef';
import { readTracks, readyCondition, type TrackWithStatus } from './trackStatus';

export interface CommitOutcome {
  /** `applied`: every track applied the commit; `failed`: one finished a reconcile since and is not Ready. */
  outcome: 'applied' | 'failed' | 'timeout';
  tracks: TrackWithStatus[];
}

/**
 * Polls the tracks' status until every one applied `commit`, one failed a reconcile that ended after
 * `since` (a failed fetch records no commit, so the sync time tells), or time ran out.
 */
export async function waitForCommit(
  client: KubeClient,
  refs: TrackRef[],
  commit: string,
  options: { since: Date; timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<CommitOutcome> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const tracks = await readTracks(client, refs);
    if (tracks.every((t) => t.status?.lastAppliedCommit === commit)) return { outcome: 'applied', tracks };
    const failed = tracks.some(
      (t) =>
        t.status?.lastAppliedCommit !== commit &&
        readyCondition(t)?.status === 'False' &&
        Date.parse(t.status?.lastSyncTime ?? '') >= options.since.getTime(),
    );
    if (failed) return { outcome: 'failed', tracks };
    if (Date.now() > deadline) return { outcome: 'timeout', tracks };
    await sleep(250, undefined, { signal: options.signal });
  }
}
