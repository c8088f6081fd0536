import { requestedAtAnnotation } from '../manifests/metadataKeys';
import { requestToken } from '../track/requestedAt';
import { shortCommit } from '../track/shortCommit';
import type { TrackCondition, TrackObject } from '../track/trackObject';
import type { Conditions } from './conditions';
import type { ReconcileSummary } from './types';

export const maxIgnoredListed = 100;

/** Conditions keep their lastTransitionTime while their status stays the same. */
export function mergeConditions(track: TrackObject, updates: Conditions, now: string): TrackCondition[] {
  const byType = new Map((track.status?.conditions ?? []).map((c) => [c.type, c]));
  for (const [type, input] of Object.entries(updates)) {
    const previous = byType.get(type);
    byType.set(type, {
      type,
      ...input,
      message: input.message.slice(0, 32_000),
      observedGeneration: track.metadata.generation ?? 0,
      lastTransitionTime: previous?.status === input.status ? previous.lastTransitionTime : now,
    });
  }
  const order = ['Ready', 'Healthy', 'Fetched', 'Parsed', 'Applied', 'Pruned', 'Pinned'];
  return [...byType.values()].sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
}

/**
 * The request (lightkeeper.dev/requestedAt) a run handled, so the every-minute check stops asking:
 * the value as the tenant wrote it when it reads as a request stamp, else its digest.
 */
export function handledRequest(track: TrackObject): { lastHandledRequestedAt?: string } {
  const token = requestToken(track.metadata.annotations?.[requestedAtAnnotation]);
  return token === undefined ? {} : { lastHandledRequestedAt: token };
}

/** The status subresource body for a finished reconcile. */
export function trackStatusBody(
  track: TrackObject,
  summary: ReconcileSummary,
  conditions: TrackCondition[],
  now: string,
  lastAppliedCommit: string | undefined,
  lastAppliedGeneration: number | undefined,
) {
  const extent = summary.deployed?.extent;
  const handled = handledRequest(track);
  const body = {
    status: {
      observedGeneration: track.metadata.generation ?? 0,
      ...handled,
      ...appliedCommit(lastAppliedCommit, lastAppliedGeneration),
      lastAttemptedCommit: summary.commit ?? null,
      lastSyncTime: now,
      ...partiallyApplied(summary, lastAppliedCommit),
      ...(summary.deployed ? { objectsPlanned: summary.deployed.of } : {}),
      objectsDiscovered: summary.counts.discovered,
      objectsApplied: summary.counts.applied,
      objectsInSync: summary.counts.inSync,
      objectsIgnored: summary.counts.ignored,
      objectsFailed: summary.counts.failed,
      objectsConflicting: summary.counts.conflicts,
      objectsPruned: summary.counts.pruned,
      objectsDrifted: summary.counts.drifted,
      ignored: summary.ignored.slice(0, maxIgnoredListed),
      ...(summary.health ? { health: healthStatus(summary.health) } : {}),
      conditions,
    },
  };
  // A broken commit changed nothing in the cluster: the counters keep describing what it runs.
  if (extent !== 'broken') return body;
  const { observedGeneration, lastAttemptedCommit, lastSyncTime } = body.status;
  return {
    status: {
      observedGeneration,
      ...appliedCommit(lastAppliedCommit, lastAppliedGeneration),
      lastAttemptedCommit,
      lastSyncTime,
      ...handled,
      conditions,
    },
  };
}

/**
 * The commit the cluster runs in full, its 7-digit form for the printer columns (a JSONPath
 * column cannot cut a string) and the spec generation it was applied under; null deletes them
 * through the merge patch.
 */
const appliedCommit = (commit: string | undefined, generation: number | undefined) => ({
  lastAppliedCommit: commit ?? null,
  lastAppliedShortCommit: commit ? shortCommit(commit) : null,
  lastAppliedGeneration: commit && generation !== undefined ? generation : null,
});

/**
 * The commit the cluster runs part of, beside the last one it runs in full: set when some objects of
 * a commit that did not succeed were applied, cleared when a commit succeeds, kept otherwise.
 */
function partiallyApplied(summary: ReconcileSummary, lastAppliedCommit: string | undefined) {
  if (summary.commit === undefined || !summary.deployed) return {};
  if (summary.commit === lastAppliedCommit) {
    return { partiallyAppliedCommit: null, partiallyAppliedShortCommit: null };
  }
  return summary.deployed.objects > 0
    ? { partiallyAppliedCommit: summary.commit, partiallyAppliedShortCommit: shortCommit(summary.commit) }
    : {};
}

/** `status.health`: the counts behind the `Healthy` condition. */
const healthStatus = (h: NonNullable<ReconcileSummary['health']>) => ({
  healthy: h.healthy,
  progressing: h.progressing,
  failed: h.failed,
  total: h.of,
});
