import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeClient } from '../kube/kubeClient';
import type { TrackRef } from '../reconcile/types';
import { readTracks, readyCondition, type TrackWithStatus } from './trackStatus';

export interface CommitOutcome {
  /** `applied`: every track applied the commit; `failed`: one attempted it and is not Ready. */
  outcome: 'applied' | 'failed' | 'timeout';
  tracks: TrackWithStatus[];
}

/** Polls the tracks' status until every one applied `commit`, one failed it, or time ran out. */
export async function waitForCommit(
  client: KubeClient,
  refs: TrackRef[],
  commit: string,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<CommitOutcome> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const tracks = await readTracks(client, refs);
    if (tracks.every((t) => t.status?.lastAppliedCommit === commit)) return { outcome: 'applied', tracks };
    const failed = tracks.some(
      (t) =>
        t.status?.lastAttemptedCommit === commit &&
        t.status.lastAppliedCommit !== commit &&
        readyCondition(t)?.status === 'False',
    );
    if (failed) return { outcome: 'failed', tracks };
    if (Date.now() > deadline) return { outcome: 'timeout', tracks };
    await sleep(250, undefined, { signal: options.signal });
  }
}
