// `status.shards`: how a sharded apply of one commit stands. Pure; written only through
// writeShards.ts (a resourceVersion-guarded read-modify-write), so concurrent shards keep each
// other's records.

import type { ShardEntry, ShardState, ShardsRecord } from '../track/shardsStatus';

export type { ShardEntry, ShardState, ShardsRecord };

/** The sharding settings a run carries (lib/config/reconcileConfig.ts reads them). */
export interface ShardSettings {
  /** Objects planned above this: the track is applied in shards. */
  threshold: number;
  /** Shards running at once, per track. */
  fanout: number;
  /** A shard running longer than this is stuck: reported, and restarted by the next run. */
  pendingMs: number;
}

/**
 * 5,000 objects (a first apply of 50,000 took 456 s in one run on the 2-core local plane, so 5,000
 * fit one invocation with room to spare); 8 shards at once per track, under the reconcile
 * function's reserved concurrency of 10; a shard running 20 minutes (past Lambda's 15) is stuck.
 */
export const defaultShardSettings: ShardSettings = { threshold: 5_000, fanout: 8, pendingMs: 1_200_000 };

/**
 * What a coordinating run of `commit`/`digest` does with the record it finds: `start` a new record,
 * `wait` while shards run, `resume` (restart the failed and the stuck, keep the succeeded), or
 * `complete` (every shard succeeded: apply the whole plan, in sync, and prune once).
 */
export type ShardVerdict =
  | { kind: 'start' }
  | { kind: 'wait'; running: string[] }
  | { kind: 'resume'; stuck: string[]; failed: string[] }
  | { kind: 'complete' };

export function shardVerdict(
  record: ShardsRecord | undefined,
  commit: string,
  digest: string,
  now: Date,
  pendingMs: number,
): ShardVerdict {
  if (!record || record.commit !== commit || record.planDigest !== digest) return { kind: 'start' };
  if (record.shards.every((s) => s.state === 'succeeded')) return { kind: 'complete' };
  const stuck = record.shards
    .filter((s) => s.state === 'running' && now.getTime() - Date.parse(s.since) > pendingMs)
    .map((s) => s.id);
  const failed = record.shards.filter((s) => s.state === 'failed').map((s) => s.id);
  const running = record.shards.filter((s) => s.state === 'running' && !stuck.includes(s.id));
  if (stuck.length === 0 && failed.length === 0 && running.length > 0)
    return { kind: 'wait', running: running.map((s) => s.id) };
  return { kind: 'resume', stuck, failed };
}

/**
 * The record a coordinating run writes: every shard of the split pending, those that already
 * succeeded for the same commit and plan kept, then up to `fanout` marked running (to be invoked).
 */
export function startShards(
  fresh: Omit<ShardsRecord, 'shards'>,
  sizes: ReadonlyMap<string, number>,
  previous: ShardsRecord | undefined,
  fanout: number,
  now: Date,
): { record: ShardsRecord; started: string[] } {
  const same = previous?.commit === fresh.commit && previous.planDigest === fresh.planDigest;
  const kept = new Map(
    same ? previous.shards.filter((s) => s.state === 'succeeded').map((s) => [s.id, s]) : [],
  );
  const since = now.toISOString();
  const shards = [...sizes].map(
    ([id, objects]): ShardEntry => kept.get(id) ?? { id, objects, state: 'pending', since },
  );
  return claimPending({ ...fresh, shards }, fanout, now);
}

/** Marks pending shards running until `fanout` run at once: the ids to invoke. */
export function claimPending(
  record: ShardsRecord,
  fanout: number,
  now: Date,
): { record: ShardsRecord; started: string[] } {
  let running = record.shards.filter((s) => s.state === 'running').length;
  const started: string[] = [];
  const shards = record.shards.map((s) => {
    if (s.state !== 'pending' || running >= fanout) return s;
    running++;
    started.push(s.id);
    return { ...s, state: 'running' as const, since: now.toISOString() };
  });
  return { record: { ...record, shards }, started };
}

/** What one shard run found. */
export interface ShardOutcome {
  applied: number;
  failed: number;
  errors: string[];
  /** Objects left untaken when the run's time budget ran out: with no failure, the shard goes on. */
  notTaken?: number;
}

/**
 * A shard's outcome recorded: its entry succeeded or failed, and the next pending shards claimed
 * (invoked by this run). `superseded` when the record is no longer this commit's and plan's, or this
 * shard is not running in it. `complete`: this write recorded the last success. `continuing`: the
 * run ran out of time with no failure; the shard stays running (its `since` renewed, so it is not
 * taken for stuck, and its `applied` summed over its runs) and is started again first.
 */
export function recordShardOutcome(
  record: ShardsRecord | undefined,
  shard: { id: string; commit: string; planDigest: string },
  outcome: ShardOutcome,
  fanout: number,
  now: Date,
):
  | { superseded: string }
  | { record: ShardsRecord; started: string[]; complete: boolean; continuing: boolean } {
  const why = shardSuperseded(record, shard);
  if (why !== undefined || !record) return { superseded: why ?? 'no shards record' };
  const failed = outcome.failed > 0 || outcome.errors.length > 0;
  const continuing = !failed && (outcome.notTaken ?? 0) > 0;
  const state: ShardState = failed ? 'failed' : continuing ? 'running' : 'succeeded';
  const shards = record.shards.map((s) =>
    s.id !== shard.id
      ? s
      : {
          ...s,
          state,
          since: now.toISOString(),
          applied: (s.applied ?? 0) + outcome.applied,
          failed: outcome.failed,
          ...(state === 'failed' ? { message: outcome.errors.slice(0, 5).join('\n').slice(0, 2000) } : {}),
        },
  );
  const claimed = claimPending({ ...record, shards }, fanout, now);
  const complete = claimed.record.shards.every((s) => s.state === 'succeeded');
  const started = continuing ? [shard.id, ...claimed.started] : claimed.started;
  return { record: claimed.record, started, complete, continuing };
}

/** Why a shard run must stand down (its record is gone, of another commit or plan, or not running), or undefined. */
export function shardSuperseded(
  record: ShardsRecord | undefined,
  shard: { id: string; commit: string; planDigest: string },
): string | undefined {
  const label = `shard ${shard.id} of ${shard.commit}`;
  if (!record) return `${label} superseded: the track has no shards record`;
  if (record.commit !== shard.commit)
    return `${label} superseded: the track is being applied at ${record.commit}`;
  if (record.planDigest !== shard.planDigest)
    return `${label} superseded: the commit's plan changed (${record.planDigest}, not ${shard.planDigest})`;
  const entry = record.shards.find((s) => s.id === shard.id);
  if (entry?.state !== 'running') return `${label} superseded: it is ${entry?.state ?? 'not in the record'}`;
  return undefined;
}
