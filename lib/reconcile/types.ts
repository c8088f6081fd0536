// The engine's public contract: one reconcile of one track, used alike by the CLI, the
// webhook-triggered reconcile function, the drift sweep and replays.

import type { Change } from '../apply/change';
import type { DependencyWait } from '../depends/dependencyCheck';
import type { Dependent } from '../depends/listDependents';
import type { IgnoredManifest } from '../plan/planManifests';
import type { AwaitedHealthStatus, FetchBackoff, TrackPin } from '../track/trackObject';
import type { TrackRef } from '../track/trackRef';

export type ReconcileMode = 'apply' | 'drift';

/** The pin a reconcile ran under, with the head of the reference it is holding back. */
export interface PinReport extends TrackPin {
  /** The head of `spec.reference` when the run looked; absent when it could not be listed. */
  head?: string;
}

export interface ReconcileRequest {
  track: TrackRef;
  /**
   * Apply this full commit SHA (a replay); otherwise the track's pin (spec.pin) if it has one, else
   * the head of its reference. Naming a commit also runs on a suspended track.
   */
  commit?: string | undefined;
  mode?: ReconcileMode;
  /**
   * This run goes on where one of `commit` stopped when its time budget ran out. It applies
   * `commit` without pinning the track, and stands down (`Aborted`) when the track was pinned
   * elsewhere or a later reconcile attempted another commit meanwhile (lib/reconcile/pinnedCommit).
   */
  continuation?: boolean;
  /** Why this reconcile runs (webhook delivery id, 'sweep', 'replay by alice'…), for events and logs. */
  reason?: string;
  /** The GitHub delivery this run serves: recorded in `status.recentDeliveries` (lib/reconcile/deliveryServed.ts). */
  delivery?: string | undefined;
  /**
   * This run applies one shard of `commit` (lib/reconcile/reconcileShard.ts): the shard's id and the
   * digest of the plan its coordinating run cut. It never prunes and never takes the track's lease.
   */
  shard?: { id: string; planDigest: string } | undefined;
}

/**
 * What a coordinating run did with a sharded apply (status.shards holds each shard's state):
 * the shards it started, those still running, those found stuck; or, for a shard run, the next
 * shards it claimed and whether it recorded the last success (`complete`: the run that prunes follows).
 */
export interface ShardsReport {
  planDigest: string;
  total: number;
  started: string[];
  running?: string[];
  stuck?: string[];
  complete?: boolean;
}

/**
 * How much of a commit the cluster runs: `objects` of the `of` objects it has for this track (those
 * not ignored) match it. `full`; `partial` (the API server refused some, or another track owns
 * them); `none` (not one applied); `broken`: the commit does not parse, so nothing of it is applied
 * and nothing pruned, and the cluster runs what it ran before.
 */
export interface Deployed {
  extent: 'full' | 'partial' | 'none' | 'broken';
  objects: number;
  of: number;
}

/**
 * `Aborted`: the run lost its track lease and stopped before prune or status (see ReconcileDeps.guard),
 * or it was a continuation another commit superseded. `Continuing`: its time budget ran out before
 * every object was applied; nothing was pruned, and another run of the same commit goes on.
 * `Waiting`: a track it depends on (spec.dependsOn) is not Ready at its current commit; nothing
 * was fetched, applied or pruned, and the dependency invokes this track once it is Ready.
 */
export type ReconcileResult = 'Succeeded' | 'Failed' | 'Suspended' | 'Aborted' | 'Continuing' | 'Waiting';

export interface ReconcileSummary {
  track: TrackRef;
  mode: ReconcileMode;
  result: ReconcileResult;
  /** The commit applied (or attempted), when it was resolved. */
  commit?: string;
  reference?: string;
  durationMs: number;
  counts: {
    discovered: number;
    applied: number;
    inSync: number;
    ignored: number;
    failed: number;
    /** Objects another track or controller owns (`conflict` changes). */
    conflicts: number;
    pruned: number;
    /** Stale objects left alone because their type is not served now (`unavailable` changes). */
    unavailable: number;
    drifted: number;
  };
  /** How much of `commit` the cluster runs after this reconcile; absent when no commit was read. */
  deployed?: Deployed;
  changes: Change[];
  ignored: IgnoredManifest[];
  /**
   * Human-readable errors: fetch, parse, apply and prune failures, each naming its file or object.
   * Ownership conflicts are not errors (they are `conflict` changes): they do not stop the prune.
   */
  errors: string[];
  /**
   * Write requests sent to the API server: `objects` (children and tracking objects: apply, prune),
   * `health` (tracking objects' `Healthy` conditions rewritten because a child's health changed, an
   * observation, not a change of the cluster's desired state) and `status` (the track's own).
   */
  writes: { objects: number; health: number; status: number };
  /** Set when the track is pinned (spec.pin): the pin and the head it holds back. */
  pin?: PinReport;
  /** The health of the commit's children in the cluster after this reconcile (lib/health). */
  health?: HealthSummary;
  /**
   * Set when this run failed to fetch its commit (a GitFetchError: the git server's or the
   * repository's failure, never the cluster's): the backoff written to `status.fetchBackoff`.
   */
  fetchBackoff?: FetchBackoff;
  /** Set when spec.dependsOn held the run back (nothing fetched, applied or pruned): the Ready reason. */
  heldBack?: 'DependencyNotReady' | 'DependencyRefused' | 'DependencyCycle';
  /** Set when the result is `Waiting`: the dependencies that are not Ready yet, each with why. */
  waitingFor?: DependencyWait[];
  /**
   * Set when this run made the track Ready (at a new commit or generation, or after not being
   * Ready): the tracks whose spec.dependsOn names it, to reconcile next (lib/depends).
   */
  dependents?: Dependent[];
  /** Set when the caller keeps a settled-health record (ReconcileDeps.awaitedHealth): what this run did with it. */
  awaitedHealth?: AwaitedHealthChange;
  /** Set when the run coordinated a sharded apply, or was a shard (lib/reconcile/shardPhase.ts). */
  shards?: ShardsReport;
}

/**
 * What a run did with `status.awaitingHealthStatus` (a pushed commit whose settled health is awaited),
 * as the caller's policy decided (ReconcileDeps.awaitedHealth): kept as it was (why), recorded, or
 * cleared in the run's status write; `post`: this run cleared it and the caller posts the settled
 * health, once.
 */
export type AwaitedHealthChange =
  | { keep: string }
  | { record: AwaitedHealthStatus }
  | { clear: AwaitedHealthStatus; post: boolean; why: string };

/** How many of `of` children are healthy, progressing or failed, the first few not healthy named. */
export interface HealthSummary {
  healthy: number;
  progressing: number;
  failed: number;
  of: number;
  unhealthy: string[];
  /** Set when the run waited for health (spec.healthTimeout): why the wait ended, how long it took. */
  waited?: { end: 'healthy' | 'failed' | 'timeout' | 'newerRun'; ms: number };
}
