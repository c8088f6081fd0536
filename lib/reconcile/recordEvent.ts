import { randomBytes } from 'node:crypto';
import type { KubeClient } from '../kube/kubeClient';
import type { TrackObject } from '../track/trackObject';

export type EventReason =
  | 'ReconcileStarted'
  | 'ReconcileSucceeded'
  | 'ReconcileContinuing'
  | 'ReconcileFailed'
  | 'Pruned'
  | 'PruneUnavailable'
  | 'Drifted'
  | 'OwnershipConflict'
  | 'Suspended'
  | 'ReconcileAborted'
  | 'PinnedBehindHead'
  | 'DependencyNotReady'
  | 'SkippedForSafety'
  | 'RequestedAtRefused'
  | 'RenderNondeterministic'
  | 'ShardStuck'
  | 'ShardFailed';

/**
 * An Event message on one line (`kubectl get events` prints one row per Event: a newline breaks its
 * table), within the 1 KiB the API server keeps.
 */
export const eventMessage = (message: string): string =>
  message
    .trim()
    .replace(/:\s*\n\s*/g, ': ')
    .replace(/\s*\n\s*/g, '; ')
    .slice(0, 1024);

/** A core/v1 Event on the track (a ClusterGitTrack's go to `default`, as for any cluster-scoped object). */
export async function recordEvent(
  client: KubeClient,
  track: TrackObject,
  type: 'Normal' | 'Warning',
  reason: EventReason,
  message: string,
): Promise<void> {
  const namespace = track.metadata.namespace ?? 'default';
  const now = new Date().toISOString();
  await client.request('POST', `/api/v1/namespaces/${namespace}/events`, {
    body: {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${track.metadata.name}.${randomBytes(8).toString('hex')}`, namespace },
      involvedObject: {
        apiVersion: track.apiVersion,
        kind: track.kind,
        name: track.metadata.name,
        namespace: track.metadata.namespace,
        uid: track.metadata.uid,
      },
      type,
      reason,
      message: eventMessage(message),
      source: { component: 'lightkeeper' },
      reportingComponent: 'lightkeeper',
      reportingInstance: 'lightkeeper',
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    },
  });
}
