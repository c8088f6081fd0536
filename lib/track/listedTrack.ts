import type { FetchBackoff } from './trackObject';
import type { TrackRef } from './trackRef';

/** A track as listed: what the webhook and the sweep need of a GitTrack or ClusterGitTrack. */
export interface ListedTrack {
  ref: TrackRef;
  spec: {
    repository: string;
    reference: string;
    subPath?: string | undefined;
    suspend?: boolean | undefined;
  };
  /** `metadata.generation` and `status.observedGeneration`: they differ until a reconcile saw the spec. */
  generation?: number | undefined;
  observedGeneration?: number | undefined;
  lastAppliedCommit?: string | undefined;
  /** `status.recentDeliveries` (lib/reconcile/deliveryServed.ts). */
  recentDeliveries?: string[] | undefined;
  /** The annotation lightkeeper.dev/requestedAt, and the last value a reconcile handled. */
  requestedAt?: string | undefined;
  lastHandledRequestedAt?: string | undefined;
  /** `status.fetchBackoff`: the drift sweep leaves the track alone until its retryAfter. */
  fetchBackoff?: FetchBackoff | undefined;
}
