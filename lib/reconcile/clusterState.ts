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
  /** The state, or the error reading it (the apply step reports it as an API failure); starts the LIST of trackers. */
  get(): Promise<ClusterState>;
  /** Discovery and the digest key, without listing the tracking objects (an incremental run GETs its own). */
  base(): Promise<Omit<ClusterState, 'trackers'>>;
  /** Starts the LIST of the track's tracking objects now, if not started yet. */
  listTrackers(): void;
  /** Waits until the reads are over, whatever their outcome (a run that ends before applying). */
  settled(): Promise<void>;
}

/**
 * Starts reading the cluster state while the commit is fetched and parsed, so a cold run does not
 * wait for the two one after the other. The run holds its track's lease: nobody else writes these
 * tracking objects meanwhile. With `deferTrackers` (the run may be incremental), the LIST of every
 * tracking object waits until `listTrackers` or `get` asks for it.
 */
export function readClusterState(
  client: KubeClient,
  owner: TrackOwner,
  keyNamespace: string,
  deferTrackers = false,
): PendingClusterState {
  const base = Promise.all([new Discovery(client).refresh(), readDigestKey(client, keyNamespace)]).then(
    ([discovery, { key, writes }]) => ({ discovery, digestKey: key, keyWrites: writes }),
  );
  // Handled here so that a failed read no one awaits yet is no unhandled rejection; get() reports it.
  base.catch(() => undefined);
  let trackers: Promise<Map<string, LiveTracker>> | undefined;
  const startList = () => {
    if (!trackers) {
      trackers = listTrackers(client, owner);
      trackers.catch(() => undefined);
    }
    return trackers;
  };
  if (!deferTrackers) startList();
  const all = () => Promise.all([base, startList()]).then(([b, t]) => ({ ...b, trackers: t }));
  const quietly = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      () => undefined,
    );
  return {
    get: all,
    base: () => base,
    listTrackers: () => void startList(),
    settled: () => Promise.all([quietly(base), quietly(trackers ?? Promise.resolve())]).then(() => undefined),
  };
}
