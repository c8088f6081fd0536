import { readDigestKey } from '../apply/digestKey';
import { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import type { TrackOwner } from '../ownership/ownershipTable';
import { type LiveTracker, listTrackers } from '../tracker/liveTracker';

/**
 * What a reconcile reads from the cluster whatever the commit: discovery, its tracking objects, and
 * the key of their digests (lib/apply/digestKey.ts).
 */
export interface ClusterState {
  discovery: Discovery;
  trackers: Map<string, LiveTracker>;
  digestKey: Buffer;
  /** Write requests reading the key sent: none once it exists (lib/apply/digestKey.ts). */
  keyWrites: number;
}

export interface PendingClusterState {
  /** The state, or the error reading it (the apply step reports it as an API failure). */
  get(): Promise<ClusterState>;
  /** Waits until the reads are over, whatever their outcome (a run that ends before applying). */
  settled(): Promise<void>;
}

/**
 * Starts reading the cluster state while the commit is fetched and parsed, so a cold run does not
 * wait for the two one after the other. The run holds its track's lease: nobody else writes these
 * tracking objects meanwhile.
 */
export function readClusterState(
  client: KubeClient,
  owner: TrackOwner,
  keyNamespace: string,
): PendingClusterState {
  const pending = Promise.all([
    new Discovery(client).refresh(),
    listTrackers(client, owner),
    readDigestKey(client, keyNamespace),
  ]).then(([discovery, trackers, { key, writes }]) => ({
    discovery,
    trackers,
    digestKey: key,
    keyWrites: writes,
  }));
  const settled = pending.then(
    () => undefined,
    () => undefined,
  );
  return { get: () => pending, settled: () => settled };
}
