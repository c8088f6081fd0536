import { ClusterUnavailableError } from '../errors';
import { isHealthError } from '../reconcile/conditionTexts';
import type { ReconcileSummary } from '../reconcile/types';
import { trackLabel } from '../track/trackRef';

/**
 * A failed reconcile during which the API server itself failed (`failedRequests` > 0: no answer,
 * or 5xx past the retries) is the cluster's fault, not the commit's: the error to throw so that
 * Lambda retries the invocation. A reconcile that failed on its input (a bad manifest, a refused
 * object) is final and returns its summary; so is one whose git fetch failed (unreachable, refused,
 * timed out, over a cap: `summary.fetchBackoff`), even if an API request failed beside it: a retry
 * would hold another of the function's reserved slots on the same git server, and the drift sweep
 * backs the track off instead (lib/reconcile/fetchBackoff.ts). A run whose only error is a failed
 * health check applied its commit in full and judged every child: a request that failed on the way
 * (and was answered later) did not decide it, and a retry would only wait for the same children again.
 */
export function clusterFailure(
  summary: ReconcileSummary,
  failedRequests: number,
): ClusterUnavailableError | undefined {
  if (summary.result !== 'Failed' || failedRequests === 0 || summary.fetchBackoff) return undefined;
  if (summary.errors.length > 0 && summary.errors.every(isHealthError)) return undefined;
  const track = trackLabel(summary.track);
  return new ClusterUnavailableError(
    `${track}: ${failedRequests} requests to the API server failed during the reconcile of ${summary.commit ?? summary.reference}: ${summary.errors[0] ?? ''}`,
    { subject: track },
  );
}
