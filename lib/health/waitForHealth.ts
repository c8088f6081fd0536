import { setTimeout as sleep } from 'node:timers/promises';
import type { Health } from '../kstatus/health';

/** Why a wait for health ended. */
export type WaitEnd = 'healthy' | 'failed' | 'timeout' | 'newerRun';

export interface WaitOptions<T> {
  /** One look at the children: their health, and whatever the caller wants to keep of the read. */
  look: () => Promise<{ health: Health[]; state: T }>;
  /** Stop at this time (epoch ms): the health timeout, or the run's time budget if it ends first. */
  until: number;
  /** Asked between looks: true when a newer reconcile of the same track is queued. */
  newerRun?: (() => Promise<boolean>) | undefined;
  firstPauseMs?: number;
  maxPauseMs?: number;
}

/**
 * Polls with backoff until every child is `Current`, one has `Failed` (kstatus' terminal state:
 * waiting longer changes nothing), the time is up, or a newer run of the track is queued (Flux's
 * CancelHealthCheckOnNewRevision: an older commit's wait never holds a newer one back).
 */
export async function waitForHealth<T>(options: WaitOptions<T>): Promise<{ end: WaitEnd; state: T }> {
  let pause = options.firstPauseMs ?? 250;
  for (;;) {
    const { health, state } = await options.look();
    if (health.every((h) => h.status === 'Current')) return { end: 'healthy', state };
    if (health.some((h) => h.status === 'Failed' || h.status === 'NotFound')) return { end: 'failed', state };
    const left = options.until - Date.now();
    if (left <= 0) return { end: 'timeout', state };
    if (await options.newerRun?.()) return { end: 'newerRun', state };
    await sleep(Math.min(pause, left));
    pause = Math.min(pause * 2, options.maxPauseMs ?? 5000);
  }
}
