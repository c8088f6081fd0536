import type { TrackRef } from '../track/trackRef';

/**
 * An invocation that did not run because its delivery was served already (lib/reconcile/deliveryServed.ts):
 * it cost one read of the track, under the track's lease, so copies that waited see the run before them.
 */
export interface ServedReconcile {
  outcome: 'served';
  track: TrackRef;
  reason: string;
}

export const isServed = (value: unknown): value is ServedReconcile =>
  typeof value === 'object' && value !== null && (value as Partial<ServedReconcile>).outcome === 'served';
