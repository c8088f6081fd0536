// `status.shards` of a track applied in shards (lib/reconcile/shardRecord.ts decides, writeShards.ts writes).

export type ShardState = 'pending' | 'running' | 'succeeded' | 'failed';

export interface ShardEntry {
  id: string;
  objects: number;
  state: ShardState;
  /** When the entry took its state. */
  since: string;
  applied?: number;
  failed?: number;
  /** A failed shard's first errors. */
  message?: string;
}

export interface ShardsRecord {
  commit: string;
  planDigest: string;
  /** The threshold the track was sharded at (objects planned above it). */
  threshold: number;
  /** The most objects one shard holds (lib/plan/shardPlan.ts shardSize); records before it: the threshold. */
  perShard?: number;
  /** Objects planned for the whole track. */
  objects: number;
  startedAt: string;
  shards: ShardEntry[];
}
