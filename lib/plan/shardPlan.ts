import { createHash } from 'node:crypto';
import type { PlannedObject } from './plannedObject';

/** A plan cut for parallel runs: what the coordinating run applies first, one part per shard, what comes last. */
export interface ShardSplit {
  /** CRDs, Namespaces and every cluster-scoped object: the coordinating run applies them first. */
  definitions: PlannedObject[];
  /** Namespaced objects by shard id: a namespace, `first..last` for a pack, or `namespace~i` for part i of a large one. */
  shards: Map<string, PlannedObject[]>;
  /**
   * Webhook configurations and APIServices: applied last, as a whole run applies them (they can
   * intercept the rest), by the run that completes the commit after every shard succeeded.
   */
  last: PlannedObject[];
}

const bucket = (o: PlannedObject, parts: number) =>
  createHash('sha256').update(`${o.manifest.ref.kind}/${o.manifest.ref.name}`).digest().readUInt32BE(0) %
  parts;

/**
 * How many objects one shard holds at most: the smallest size at which the plan's namespaced
 * objects cut into at most `fanout` shards (one wave of runs), never more than the threshold. Each
 * shard run fetches and plans the whole commit again, so 1,000 namespaces of 10 objects are
 * `fanout` runs, not 1,000; and packing whole namespaces never spills into a second wave of one.
 */
export function shardSize(planned: readonly PlannedObject[], threshold: number, fanout: number): number {
  const n = namespacedCount(planned);
  let low = Math.max(1, Math.ceil(n / Math.max(1, fanout)));
  let high = Math.max(1, threshold);
  if (low >= high) return high;
  // The number of shards falls as the size grows: the smallest size with at most `fanout`.
  while (low < high) {
    const size = Math.floor((low + high) / 2);
    if (splitShards(planned, size).shards.size <= fanout) high = size;
    else low = size + 1;
  }
  return low;
}

/** The objects the coordinating run would hand to shards: every one not a definition nor last. */
export function namespacedCount(planned: readonly PlannedObject[]): number {
  return planned.filter(
    (o) =>
      o.stage !== 'interceptors' &&
      o.stage !== 'definitions' &&
      o.resource.namespaced &&
      o.decision.namespace !== undefined,
  ).length;
}

/**
 * Cuts a plan into shards of at most `size` objects (pure, stable for the same plan and size).
 * Namespaces are taken in name order: one above `size` is split into ceil(n / size) parts
 * (`ns~i`) by a hash of `kind/name`, so an object stays in its part while the namespace's size
 * does; smaller ones are packed, neighbours in name order, while the pack stays within `size`
 * (`ns`, or `first..last` for a pack of the namespaces from first to last).
 */
export function splitShards(planned: readonly PlannedObject[], size: number): ShardSplit {
  const definitions: PlannedObject[] = [];
  const last: PlannedObject[] = [];
  const byNamespace = new Map<string, PlannedObject[]>();
  for (const o of planned) {
    const ns = o.decision.namespace;
    if (o.stage === 'interceptors') {
      last.push(o);
      continue;
    }
    if (o.stage === 'definitions' || !o.resource.namespaced || ns === undefined) {
      definitions.push(o);
      continue;
    }
    const list = byNamespace.get(ns) ?? [];
    list.push(o);
    byNamespace.set(ns, list);
  }
  const max = Math.max(1, size);
  const shards = new Map<string, PlannedObject[]>();
  let pack: { first: string; last: string; objects: PlannedObject[] } | undefined;
  const closePack = () => {
    if (pack) shards.set(pack.first === pack.last ? pack.first : `${pack.first}..${pack.last}`, pack.objects);
    pack = undefined;
  };
  for (const ns of [...byNamespace.keys()].sort()) {
    const objects = byNamespace.get(ns) ?? [];
    if (objects.length <= max) {
      if (pack && pack.objects.length + objects.length > max) closePack();
      if (pack) {
        pack.last = ns;
        pack.objects.push(...objects);
      } else pack = { first: ns, last: ns, objects: [...objects] };
      continue;
    }
    closePack();
    const parts = Math.ceil(objects.length / max);
    for (let i = 0; i < parts; i++) shards.set(`${ns}~${i}`, []);
    for (const o of objects) shards.get(`${ns}~${bucket(o, parts)}`)?.push(o);
    for (let i = 0; i < parts; i++) if (shards.get(`${ns}~${i}`)?.length === 0) shards.delete(`${ns}~${i}`);
  }
  closePack();
  return { definitions, shards, last };
}

/**
 * The digest of a plan: every planned object's key and keyed digest, sorted. Two runs of the same
 * commit, spec and cluster plan the same; a shard whose plan differs from its coordinator's is stale.
 */
export function planDigest(planned: readonly PlannedObject[]): string {
  const lines = planned.map((o) => `${o.key} ${o.digest}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 32);
}
