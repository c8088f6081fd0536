import type { HelmSpec } from '../helm/helmSpec';
import type { KustomizeSpec } from '../kustomize/kustomizeSettings';
import type { ShardsRecord } from './shardsStatus';
import type { TrackKind } from './trackRef';

/** What deleting a track (or a tracking object) does to the children: `spec.deletionPolicy`. */
export type DeletionPolicy = 'Delete' | 'Orphan';

/**
 * `spec.pin` of a track: the commit a replay pinned it to, written by the CLI with the user's own
 * rights (lib/pin). While set, every reconcile that names no commit (sweep, push, plain reconcile)
 * applies this commit instead of the head of `spec.reference`.
 */
export interface TrackPin {
  commit: string;
  /** Who pinned, as the API server named them to the CLI; informational (the audit log is the record). */
  by?: string;
  at?: string;
}

/** One entry of `spec.dependsOn`, as written (the CRD checks its shape; lib/depends its meaning). */
export interface DependsOnEntry {
  kind: string;
  name: string;
  namespace?: string | undefined;
}

/**
 * `status.fetchBackoff`: how many runs of a track in a row failed to fetch its commit and until when
 * the drift sweep leaves the track alone (lib/reconcile/fetchBackoff.ts).
 */
export interface FetchBackoff {
  /** Consecutive runs that failed to fetch. */
  failures: number;
  /** RFC 3339: the drift sweep starts no reconcile of the track before this. */
  retryAfter: string;
}

/** `status.awaitingHealthStatus`: a pushed commit whose GitHub status still waits for health. */
export interface AwaitedHealthStatus {
  commit: string;
  context: string;
  /**
   * The repository the push's run fetched the commit from, where the settled status goes: never
   * the track's repository read later (a spec changed meanwhile would send it elsewhere). A record
   * without one (written before it was kept) is cleared unposted.
   */
  repository?: string;
}

/** A condition of a track's status (Ready, Healthy, Fetched, Parsed, Applied, Pruned, Pinned). */
export interface TrackCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

/**
 * `spec.decryption`, as Flux's Kustomization has it: the Secret is in a GitTrack's own namespace (its
 * `namespace` is ignored there) and read as the track; a ClusterGitTrack names its namespace.
 */
export interface TrackDecryption {
  provider: 'sops';
  secretRef?: { name: string; namespace?: string };
}

/** A GitTrack or ClusterGitTrack as read from the API server. */
export interface TrackObject {
  apiVersion: string;
  kind: TrackKind;
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    generation?: number;
    resourceVersion?: string;
    annotations?: Record<string, string>;
  };
  spec: {
    repository: string;
    reference: string;
    subPath?: string;
    auth?: { type: 'token' | 'basic' | 'githubApp'; secretRef: { name: string; namespace?: string } };
    prune?: boolean;
    deletionPolicy?: DeletionPolicy;
    allowEmpty?: boolean;
    suspend?: boolean;
    serviceAccountName?: string;
    defaultNamespace?: string;
    pin?: TrackPin;
    /** A Go duration (`2m`): how long a reconcile waits for the children it changed to be healthy. */
    healthTimeout?: string;
    dependsOn?: DependsOnEntry[];
    kustomize?: KustomizeSpec;
    /** Flux's: SOPS documents of the commit are decrypted with the keys of this Secret (lib/sops). */
    decryption?: TrackDecryption;
    /** Render the Helm chart at `chart` (default subPath) instead of reading files (lib/helm). */
    helm?: HelmSpec;
  };
  status?: {
    observedGeneration?: number;
    lastAppliedCommit?: string;
    /** The spec generation `lastAppliedCommit` was applied under: an incremental run needs the same. */
    lastAppliedGeneration?: number;
    lastAttemptedCommit?: string;
    partiallyAppliedCommit?: string;
    /** The lightkeeper.dev/requestedAt a run last handled (lib/track/requestedAt.ts). */
    lastHandledRequestedAt?: string;
    conditions?: TrackCondition[];
    fetchBackoff?: FetchBackoff;
    /** The GitHub deliveries its last runs served, newest first (lib/reconcile/deliveryServed.ts). */
    recentDeliveries?: string[];
    awaitingHealthStatus?: AwaitedHealthStatus;
    /** A sharded apply: its commit, plan digest and each shard's state (lib/reconcile/shardRecord.ts). */
    shards?: ShardsRecord;
    /** spec.helm.hooks Run: the release (commit and spec.helm) whose hooks last ran in full (lib/reconcile/helmHooks.ts). */
    helmHooksRevision?: string;
    /** The counters of the whole track an incremental run carries forward (lib/reconcile/trackStatus.ts). */
    objectsDiscovered?: number;
    objectsPlanned?: number;
    objectsIgnored?: number;
    ignored?: Array<{ path: string; object?: string; reason: string }>;
  };
}
