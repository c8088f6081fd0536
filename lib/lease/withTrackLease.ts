import { setTimeout as sleep } from 'node:timers/promises';
import { LeaseTimeoutError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import type { LeaseTarget } from './leaseTarget';
import { TrackLease } from './trackLease';

export interface LeaseOptions {
  /** Unique per invocation (e.g. the Lambda request id). */
  holder: string;
  /** How long the lease outlives its last renewal. Default 60 s; renewed every third of it. */
  ttlSeconds?: number;
  /** Poll interval while another invocation holds the lease. Default 1 s. */
  pollMs?: number;
  /** Stop waiting at this time (epoch ms) with a LeaseTimeoutError. */
  waitUntil: number;
  /** Called once when the lease is busy and this invocation starts waiting. */
  onWait?: (heldBy: string) => void;
  /** Called when a renewal fails or finds the lease taken over. */
  onRenewalProblem?: (problem: unknown) => void;
}

/** Waits for the lease, then holds it (renewing) while `run` runs, and releases it afterwards. */
export async function withTrackLease<T>(
  client: KubeClient,
  target: LeaseTarget,
  options: LeaseOptions,
  run: (lease: TrackLease) => Promise<T>,
): Promise<T> {
  const ttlSeconds = options.ttlSeconds ?? 60;
  const lease = await acquire(client, target, options, ttlSeconds);
  let renewing: Promise<unknown> | undefined;
  const timer = setInterval(
    () => {
      renewing ??= lease
        .renew()
        .then((held) => held || options.onRenewalProblem?.(new Error(`lease ${target.name} was taken over`)))
        .catch((e: unknown) => options.onRenewalProblem?.(e))
        .finally(() => {
          renewing = undefined;
        });
    },
    (ttlSeconds * 1000) / 3,
  );
  timer.unref();
  try {
    return await run(lease);
  } finally {
    clearInterval(timer);
    await renewing;
    await lease.release();
  }
}

async function acquire(
  client: KubeClient,
  target: LeaseTarget,
  options: LeaseOptions,
  ttlSeconds: number,
): Promise<TrackLease> {
  let waiting = false;
  for (;;) {
    const attempt = await TrackLease.tryAcquire(client, target, options.holder, ttlSeconds);
    if ('acquired' in attempt) return attempt.acquired;
    if (!waiting) options.onWait?.(attempt.heldBy);
    waiting = true;
    const pause = options.pollMs ?? 1000;
    if (Date.now() + pause > options.waitUntil) {
      throw new LeaseTimeoutError(
        `lease ${target.namespace}/${target.name} is still held by ${attempt.heldBy}`,
        {
          subject: `${target.namespace}/${target.name}`,
        },
      );
    }
    await sleep(pause);
  }
}
