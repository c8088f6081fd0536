import type { TrackRef } from '../track/trackRef';

/** A dependency (spec.dependsOn) that holds a run back, and why. */
export interface DependencyWait {
  track: TrackRef;
  reason: string;
  /** Ready, but at an older commit than it is meant to be at: a reconcile of it catches up. */
  behind?: boolean;
}

/**
 * The dependency gate's verdict: `ready` (the run goes on), `refused` (its dependsOn is not allowed,
 * or a cycle runs through it) or `waiting` (nothing is fetched; the dependency invokes it once Ready).
 */
export type DependencyCheck =
  | { state: 'ready' }
  /** `detail`: what is not allowed, or the cycle (`a → b → a`); lib/reconcile/conditionTexts.ts words it. */
  | { state: 'refused'; reason: 'DependencyRefused' | 'DependencyCycle'; detail: string }
  | { state: 'waiting'; waiting: DependencyWait[] };
