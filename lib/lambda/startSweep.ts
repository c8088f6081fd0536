import pLimit from 'p-limit';
import type { Track } from '../webhook/track';
import type { ReconcileEvent } from './reconcileEvent';

export interface SweepResult {
  started: number;
  skipped: number;
  failed: Array<{ track: Track['ref']; error: string }>;
}

/** Starts a drift reconcile of every track that is not suspended, at most `concurrency` invokes at a time. */
export async function startSweep(
  tracks: readonly Track[],
  trigger: (event: ReconcileEvent) => Promise<void>,
  options: { concurrency?: number; reason?: string } = {},
): Promise<SweepResult> {
  const limit = pLimit(options.concurrency ?? 10);
  const enabled = tracks.filter((t) => t.spec.suspend !== true);
  const reason = options.reason ?? 'sweep';
  const results = await Promise.allSettled(
    enabled.map((t) => limit(() => trigger({ track: t.ref, mode: 'drift', reason }))),
  );
  const failed = results.flatMap((r, i) =>
    r.status === 'rejected' ? [{ track: (enabled[i] as Track).ref, error: messageOf(r.reason) }] : [],
  );
  return { started: enabled.length - failed.length, skipped: tracks.length - enabled.length, failed };
}

const messageOf = (e: unknown): string =>
  e instanceof Error ? `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ''}` : String(e);
