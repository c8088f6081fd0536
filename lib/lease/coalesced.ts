import type { TrackRef } from '../track/trackRef';

/**
 * An invocation that did not run because it would add nothing: the track is running (`heldBy`)
 * and another live invocation (`waiter`) already waits to reconcile its newest head.
 */
export interface Coalesced {
  outcome: 'coalesced';
  heldBy: string;
  waiter: string;
}

/** What the reconcile function answers for a coalesced request. */
export interface CoalescedReconcile extends Coalesced {
  track: TrackRef;
}

export const isCoalesced = (value: unknown): value is Coalesced =>
  typeof value === 'object' && value !== null && (value as Partial<Coalesced>).outcome === 'coalesced';
