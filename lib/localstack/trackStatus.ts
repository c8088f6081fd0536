import { formatTable } from '../format/formatTable';
import type { KubeClient } from '../kube/kubeClient';
import { loadTrack } from '../track/loadTrack';
import type { TrackCondition, TrackObject } from '../track/trackObject';
import type { TrackRef } from '../track/trackRef';

/** A track with the status fields `lightkeeper start` shows. */
export interface TrackWithStatus extends Omit<TrackObject, 'status'> {
  status?: {
    lastAppliedCommit?: string;
    lastAttemptedCommit?: string;
    lastSyncTime?: string;
    objectsApplied?: number;
    objectsInSync?: number;
    objectsIgnored?: number;
    conditions?: TrackCondition[];
  };
}

export const readTracks = (client: KubeClient, refs: TrackRef[]) =>
  Promise.all(refs.map((ref) => loadTrack(client, ref) as Promise<TrackWithStatus>));

export const readyCondition = (track: TrackWithStatus) =>
  track.status?.conditions?.find((c) => c.type === 'Ready');

/** The tracks as `kubectl get` would list them, then why any of them is not Ready. */
export function formatTrackTable(tracks: TrackWithStatus[]): string {
  const count = (n: number | undefined) => (n === undefined ? '' : String(n));
  const table = formatTable(
    ['kind', 'namespace', 'name', 'reference', 'commit', 'applied', 'in sync', 'ignored', 'ready'],
    tracks.map((t) => [
      t.kind,
      t.metadata.namespace ?? '-',
      t.metadata.name,
      t.spec.reference,
      t.status?.lastAppliedCommit ?? '<none>',
      count(t.status?.objectsApplied),
      count(t.status?.objectsInSync),
      count(t.status?.objectsIgnored),
      readyCondition(t)?.status ?? 'Unknown',
    ]),
  );
  const problems = tracks
    .map((t) => ({ t, ready: readyCondition(t) }))
    .filter(({ ready }) => ready && ready.status !== 'True')
    .map(({ t, ready }) => `${t.kind} ${t.metadata.name}: ${ready?.reason}: ${ready?.message}`);
  return [table, ...problems].join('\n');
}
