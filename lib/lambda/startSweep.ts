import pLimit from 'p-limit';
import { inFetchBackoff } from '../reconcile/fetchBackoff';
import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import { defaultSweepConcurrency } from '../settings/defaults';
import type { ListedTrack } from '../track/listedTrack';
import { requestToken } from '../track/requestedAt';

export interface SweepResult {
  started: number;
  /** Tracks not started: out of scope (suspended; already observed), or backed off. */
  skipped: number;
  failed: Array<{ track: ListedTrack['ref']; error: string }>;
  /** Tracks the drift sweep left alone because their fetches keep failing (`status.fetchBackoff`). */
  backedOff: Array<{ track: ListedTrack['ref']; failures: number; retryAfter: string }>;
}

/**
 * What a sweep covers: `all` is the drift sweep of every track that is not suspended; `unobserved`
 * is the cheap frequent check that reconciles only tracks whose spec no reconcile has seen yet
 * (just created, or `reference`/`subPath`/… changed), suspended ones included so their status
 * says so promptly, and tracks whose reconcile was requested (`lightkeeper.dev/requestedAt`).
 */
export type SweepScope = 'all' | 'unobserved';

/** Reconciles a sweep starts at once unless SWEEP_CONCURRENCY says otherwise (lib/config/sweepConfig.ts). */

export const isUnobserved = (t: ListedTrack) =>
  t.generation === undefined || t.generation !== t.observedGeneration;

/**
 * A reconcile was asked for (a new `lightkeeper.dev/requestedAt`) that no run has handled yet,
 * compared as runs record it (a value that may not be copied, by its digest).
 */
export const isRequested = (t: ListedTrack) => {
  const token = requestToken(t.requestedAt);
  return token !== undefined && token !== t.lastHandledRequestedAt;
};

/**
 * Starts a reconcile of every track in `scope`, at most `concurrency` invokes at a time. The drift
 * sweep leaves alone a track whose fetches keep failing until its `status.fetchBackoff.retryAfter`
 * (lib/reconcile/fetchBackoff.ts), so a tenant's stalling git server does not take a reserved slot
 * of the reconcile function every 5 minutes; a changed spec (scope `unobserved`) runs at once.
 */
export async function startSweep(
  tracks: readonly ListedTrack[],
  trigger: (event: ReconcileEvent) => Promise<void>,
  options: { concurrency?: number; reason?: string; scope?: SweepScope; now?: Date } = {},
): Promise<SweepResult> {
  const limit = pLimit(options.concurrency ?? defaultSweepConcurrency);
  const scope = options.scope ?? 'all';
  const now = options.now ?? new Date();
  const inScope = tracks.filter((t) =>
    scope === 'all' ? t.spec.suspend !== true : isUnobserved(t) || isRequested(t),
  );
  const backedOff = scope === 'all' ? inScope.filter((t) => inFetchBackoff(t.fetchBackoff, now)) : [];
  const chosen = inScope.filter((t) => !backedOff.includes(t));
  const mode = scope === 'all' ? 'drift' : 'apply';
  const reason = options.reason ?? (scope === 'all' ? 'sweep' : 'new or changed track');
  const results = await Promise.allSettled(
    chosen.map((t) =>
      limit(() =>
        trigger({
          track: t.ref,
          mode,
          reason:
            scope === 'unobserved' && !isUnobserved(t)
              ? `requested at ${requestToken(t.requestedAt)}`
              : reason,
        }),
      ),
    ),
  );
  const failed = results.flatMap((r, i) =>
    r.status === 'rejected' ? [{ track: (chosen[i] as ListedTrack).ref, error: messageOf(r.reason) }] : [],
  );
  return {
    started: chosen.length - failed.length,
    skipped: tracks.length - chosen.length,
    failed,
    backedOff: backedOff.flatMap((t) => (t.fetchBackoff ? [{ track: t.ref, ...t.fetchBackoff }] : [])),
  };
}

/** The sweep's scope from its scheduled event (`{"scope": "unobserved"}`); anything else is `all`. */
export function sweepScopeOf(event: unknown): SweepScope {
  const scope = (event as { scope?: unknown } | null)?.scope;
  return scope === 'unobserved' ? 'unobserved' : 'all';
}

const messageOf = (e: unknown): string =>
  e instanceof Error ? `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ''}` : String(e);
