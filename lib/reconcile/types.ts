// The engine's public contract: one reconcile of one track, used alike by the CLI, the
// webhook-triggered reconcile function, the drift sweep and replays.

import type { IgnoredManifest } from '../plan/planManifests';
import type { FetchBackoff } from './fetchBackoff';

export type TrackKind = 'GitTrack' | 'ClusterGitTrack';

export interface TrackRef {
  kind: TrackKind;
  /** Required for a GitTrack, absent for a ClusterGitTrack. */
  namespace?: string | undefined;
  name: string;
}

export type ReconcileMode = 'apply' | 'drift';

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
}

/**
 * What happened to one object: a closed set, as in fluxcd/pkg ssa. `skipped` is an object left alone
 * on purpose (update strategy Never and it exists); it counts as in sync. `conflict` is an object
 * another track or controller owns (its tracking object or the child itself): not taken over, and
 * unlike `failed` it does not stop the prune of this track's other objects. `unavailable` is a stale
 * object whose type the server does not serve now (an aggregated API down, a version no longer
 * served): it may still exist, so it is not pruned, and its tracking object is kept for a later run.
 */
export type ChangeAction =
  | 'created'
  | 'configured'
  | 'unchanged'
  | 'deleted'
  | 'orphaned'
  | 'skipped'
  | 'conflict'
  | 'unavailable'
  | 'failed';

export interface Change {
  /** `Kind.group/namespace/name`, formatted by lib/manifests formatRef. */
  subject: string;
  action: ChangeAction;
  /** Set for failed and skipped objects, and for configured ones that had drifted. */
  message?: string;
  /** True when the object was configured because its live state had drifted from the commit. */
  drifted?: boolean;
}

export type { IgnoredManifest };

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

/** A dependency (spec.dependsOn) that held a run back, and why (lib/depends). */
export interface DependencyWait {
  track: TrackRef;
  reason: string;
  /** Ready, but at an older commit than it is meant to be at: a reconcile of it catches up. */
  behind?: boolean;
}

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
  /** Write requests sent to the API server, split into objects and the track's own status/events. */
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
}

/** A track whose spec.dependsOn names the reconciled one, and whether both follow the same repository. */
export interface Dependent {
  track: TrackRef;
  /** Same `spec.repository`: a push to it concerns both (and its commit status too). */
  sameRepository: boolean;
}

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
