/** What a track's listing says of the pushes it has served. */
export interface ServedState {
  generation?: number | undefined;
  observedGeneration?: number | undefined;
  lastAppliedCommit?: string | undefined;
  /** `status.recentDeliveries`: the GitHub deliveries its last runs served, newest first. */
  recentDeliveries?: readonly string[] | undefined;
}

/** A track object's served state. */
export const servedState = (track: {
  metadata: { generation?: number | undefined };
  status?:
    | { observedGeneration?: number; lastAppliedCommit?: string; recentDeliveries?: string[] }
    | undefined;
}): ServedState => ({
  generation: track.metadata.generation,
  observedGeneration: track.status?.observedGeneration,
  lastAppliedCommit: track.status?.lastAppliedCommit,
  recentDeliveries: track.status?.recentDeliveries,
});

/** How many delivery ids a track's status keeps. */
export const recentDeliveriesKept = 10;

/**
 * Why a push delivery needs no reconcile of a track, or undefined when it does. GitHub signs a
 * delivery's body but puts no time in it, so a captured delivery stays valid forever: one already
 * served, or one whose commit the track applied at its current generation, is answered from the
 * track's listing alone — no fetch, no reconcile.
 */
export function deliveryServed(
  track: ServedState,
  push: { delivery?: string | undefined; after: string },
): string | undefined {
  if (push.delivery !== undefined && track.recentDeliveries?.includes(push.delivery)) {
    return `delivery ${push.delivery} was already served`;
  }
  const current = track.generation !== undefined && track.generation === track.observedGeneration;
  if (current && track.lastAppliedCommit === push.after) {
    return `already applied ${push.after.slice(0, 7)} at its current generation`;
  }
  return undefined;
}

/** `status.recentDeliveries` after a run that served `delivery`. */
export const withDelivery = (previous: readonly string[] | undefined, delivery: string): string[] =>
  [delivery, ...(previous ?? []).filter((d) => d !== delivery)].slice(0, recentDeliveriesKept);
