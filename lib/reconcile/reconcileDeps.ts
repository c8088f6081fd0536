import type { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import type { DeploymentConfig } from '../settings/deploymentModes';
import type { AwaitedHealthStatus, TrackObject } from '../track/trackObject';
import type { DiffRead, IncrementalVerdict } from './incrementalGate';
import type { SourceOutcome } from './outcomes';
import type { ShardSettings } from './shardRecord';
import type { AwaitedHealthChange, ReconcileSummary } from './types';

export type ReconcilePhase = 'fetch' | 'parse' | 'hooks' | 'apply' | 'prune' | 'health' | 'status';

/** What a source is asked: one commit of one track. */
export interface SourceRequest {
  track: TrackObject;
  /** What to fetch: a full commit SHA (a replay, a pin), else the track's branch or tag. */
  reference: string;
  /** Also list the head of `spec.reference` (the track is pinned: its report names the head). */
  listHead: boolean;
  /** When the run's time budget runs out (epoch ms); undefined: no limit. */
  deadline: number | undefined;
  /** Called once the commit is fetched, with the commit fetched. */
  onFetched: (commit: string) => void;
  /**
   * Called and awaited once the commit's files are read, before rendering and parsing begin: the
   * run records that it started on this commit (its ReconcileStarted Event) as the fetch's last step.
   */
  onRead?: (commit: string) => Promise<void>;
  /**
   * The cluster's discovery as the run reads it anyway (lib/reconcile/clusterState.ts): a chart
   * (spec.helm) is rendered with the cluster's API versions. Without it a chart is not rendered.
   */
  discovery?: () => Promise<Discovery>;
  /**
   * Whether this run may read only the files changed since the last applied commit
   * (lib/reconcile/incrementalGate.ts), asked once the commit is fetched and again with the diff.
   * Absent: every file is read.
   */
  incremental?: (commit: string, diff?: DiffRead) => IncrementalVerdict;
}

/**
 * fetch + read + render + parse of a track's commit: lib/reconcile/gitSource.ts by default (the
 * track's repository with its own credentials). Any failure it knows is an outcome, never thrown.
 */
export type Source = (request: SourceRequest) => Promise<SourceOutcome>;

/**
 * Decides `status.awaitingHealthStatus` after a run (pure; lib/github/awaitedHealthStatus.ts): given
 * the record the run read, its summary and the repository it fetched.
 */
export type AwaitedHealthPolicy = (
  current: AwaitedHealthStatus | undefined,
  summary: ReconcileSummary,
  repository: string,
) => AwaitedHealthChange;

export interface ReconcileDeps {
  client: KubeClient;
  config: DeploymentConfig;
  /** Requests in flight at once while applying (default `defaultConcurrency`, 16). */
  concurrency?: number;
  /** Bound for waiting on CRDs and on recreated objects (default 120 s). */
  waitTimeoutMs?: number;
  /** Where clones are kept and reused (default: the OS temp dir). */
  gitCacheRoot?: string;
  /** Where the commit comes from; default: the track's git repository (lib/reconcile/gitSource.ts). */
  source?: Source;
  onProgress?: (phase: ReconcilePhase, done?: number, total?: number) => void;
  /**
   * Called once the track's commit is fetched with the track's own credentials (so the track can
   * read that repository), with the repository fetched: what the reconcile function posts a push's
   * `pending` status on. A run that fetched nothing (a fetch that failed, a held-back or suspended
   * run) never calls it.
   */
  onFetched?: (fetched: { commit: string; repository: string }) => void;
  /**
   * Asked right before prune and before the status is written: throws a LeaseLostError when this
   * run may no longer write (its track lease was lost). The run then stops with result `Aborted`:
   * nothing pruned, no status written (the newer holder owns it).
   */
  guard?: () => Promise<void>;
  /**
   * How long this run may apply, read when it starts (lib/reconcile/timeBudget; the function passes
   * the invocation's remaining time less a margin). Once spent the run stops taking new objects,
   * prunes nothing and ends `Continuing`; the caller starts another run of the same commit.
   * Default: no limit.
   */
  timeBudgetMs?: number | (() => number);
  /**
   * Asked while a run waits for health (spec.healthTimeout): true when a newer reconcile of the same
   * track is queued, and the wait stops so it is not held back. Default: never.
   */
  newerRunQueued?: () => Promise<boolean>;
  /**
   * The reconciler's own namespace, where the key of tracking-object digests is kept
   * (lib/apply/digestKey.ts). Default: its lease namespace under reconcileUnderLease
   * (`LIGHTKEEPER_LEASE_NAMESPACE`, read by the loaders), else lightkeeper-system.
   */
  keyNamespace?: string;
  /**
   * Keeps `status.awaitingHealthStatus` in the run's one status write: a record, or its clearing
   * (guarded by the resourceVersion the run read when this run is to post the settled health, so it
   * is posted at most once). Default: the record is left as it is.
   */
  awaitedHealth?: AwaitedHealthPolicy;
  /**
   * Apply a track planning more objects than `threshold` in shards run by other invocations
   * (lib/reconcile/shardPhase.ts). Default: never (the CLI applies every track whole).
   */
  shards?: ShardSettings;
}
