import { createHash } from 'node:crypto';
import type { PlannedObject } from './plannedObject';

/** A plan cut for parallel runs: what the coordinating run applies first, one part per shard, what comes last. */
export interface ShardSplit {
  /** CRDs, Namespaces and every cluster-scoped object: the coordinating run applies them first. */
  definitions: PlannedObject[];
  /** Namespaced objects by shard id: a namespace, or `namespace~i` for part i of a large one. */
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
 * Cuts a plan into shards (pure, stable for the same plan): one per namespace; a namespace holding
 * more than `maxPerShard` objects is split into ceil(n / maxPerShard) parts by a hash of
 * `kind/name`, so an object stays in its part while the namespace's size does.
 */
export function splitShards(planned: readonly PlannedObject[], maxPerShard: number): ShardSplit {
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
  const shards = new Map<string, PlannedObject[]>();
  for (const ns of [...byNamespace.keys()].sort()) {
    const objects = byNamespace.get(ns) ?? [];
    const parts = Math.max(1, Math.ceil(objects.length / Math.max(1, maxPerShard)));
    if (parts === 1) {
      shards.set(ns, objects);
      continue;
    }
    for (let i = 0; i < parts; i++) shards.set(`${ns}~${i}`, []);
    for (const o of objects) shards.get(`${ns}~${bucket(o, parts)}`)?.push(o);
    for (let i = 0; i < parts; i++) if (shards.get(`${ns}~${i}`)?.length === 0) shards.delete(`${ns}~${i}`);
  }
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
