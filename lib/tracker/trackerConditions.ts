import type { LiveTracker } from './liveTracker';

export function inSyncCondition(
  status: 'True' | 'False',
  reason: string,
  message: string,
  live?: LiveTracker,
) {
  const previous = live?.status?.conditions?.find((c) => c.type === 'InSync');
  const lastTransitionTime =
    previous?.status === status && previous.lastTransitionTime
      ? previous.lastTransitionTime
      : new Date().toISOString();
  return { type: 'InSync', status, reason, message, lastTransitionTime };
}

/**
 * The tracking object's conditions other than InSync (its `Healthy`, lib/health), kept when InSync
 * is written: a merge patch replaces the whole list, and an unchanged verdict must not be rewritten.
 */
export const otherConditions = (live: LiveTracker | undefined) =>
  (live?.status?.conditions ?? []).filter((c) => c.type !== 'InSync');

/**
 * The conditions of a successful apply: InSync, and the `Healthy` verdict when the apply's answer
 * already settles it (lib/tracker/healthyCondition.ts), in place of the one the tracking object had.
 */
export function appliedConditions(
  commit: string,
  live: LiveTracker | undefined,
  healthy?: { type: string; status: string },
) {
  const others = otherConditions(live).filter((c) => !healthy || c.type !== healthy.type);
  return [
    inSyncCondition('True', 'Applied', `applied at ${commit}`, live),
    ...(healthy ? [healthy] : []),
    ...others,
  ];
}
