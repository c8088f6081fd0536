import { LeaseLostError } from '../errors';
import type { TrackLease } from './trackLease';

/**
 * Renews `lease` every `everyMs` until the returned `stop` is awaited. A renewal that fails is
 * reported to `onProblem`; one that finds the lease lost is reported once and ends the renewals.
 */
export function keepRenewing(
  lease: TrackLease,
  everyMs: number,
  onProblem?: (problem: unknown) => void,
): () => Promise<void> {
  let renewing: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    renewing ??= lease
      .renew()
      .then((held) => {
        if (held) return;
        clearInterval(timer);
        const { namespace, name } = lease.target;
        onProblem?.(new LeaseLostError(`lease ${namespace}/${name} ${lease.lostReason}`));
      })
      .catch((e: unknown) => onProblem?.(e))
      .finally(() => {
        renewing = undefined;
      });
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await renewing;
  };
}
