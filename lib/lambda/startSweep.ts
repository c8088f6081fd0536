import pLimit from 'p-limit';
import type { Track } from '../webhook/track';
import type { ReconcileEvent } from './reconcileEvent';

export interface SweepResult {
  started: number;
  skipped: number;
  failed: Array<{ track: Track['ref']; error: string }>;
}

/**
 * What a sweep covers: `all` is the drift sweep of every track that is not suspended; `unobserved`
 * is the cheap frequent check that reconciles only tracks whose spec no reconcile has seen yet
 * (just created, or `reference`/`subPath`/… changed), suspended ones included so their status
 * says so promptly.
 */
export type SweepScope = 'all' | 'unobserved';

export const isUnobserved = (t: Track) => t.generation === undefined || t.generation !== t.observedGeneration;

/** Starts a reconcile of every track in `scope`, at most `concurrency` invokes at a time. */
export async function startSweep(
  tracks: readonly Track[],
  trigger: (event: ReconcileEvent) => Promise<void>,
  options: { concurrency?: number; reason?: string; scope?: SweepScope } = {},
): Promise<SweepResult> {
  const limit = pLimit(options.concurrency ?? 10);
  const scope = options.scope ?? 'all';
  const chosen = tracks.filter((t) => (scope === 'all' ? t.spec.suspend !== true : isUnobserved(t)));
  const mode = scope === 'all' ? 'drift' : 'apply';
  const reason = options.reason ?? (scope === 'all' ? 'sweep' : 'new or changed track');
  const results = await Promise.allSettled(
    chosen.map((t) => limit(() => trigger({ track: t.ref, mode, reason }))),
  );
  const failed = results.flatMap((r, i) =>
    r.status === 'rejected' ? [{ track: (chosen[i] as Track).ref, error: messageOf(r.reason) }] : [],
  );
  return { started: chosen.length - failed.length, skipped: tracks.length - chosen.length, failed };
}

/** The sweep's scope from its scheduled event (`{"scope": "unobserved"}`); anything else is `all`. */
export function sweepScopeOf(event: unknown): SweepScope {
  const scope = (event as { scope?: unknown } | null)?.scope;
  return scope === 'unobserved' ? 'unobserved' : 'all';
}

const messageOf = (e: unknown): string =>
  e instanceof Error ? `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ''}` : String(e);
