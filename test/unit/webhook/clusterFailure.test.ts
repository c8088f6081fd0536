import { describe, expect, it } from 'vitest';
import { isInfrastructureError } from '../../../lib/errors';
import { clusterFailure } from '../../../lib/lambda/clusterFailure';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import { summaryOf } from '../../support/reconcileSummary';

const summary = (result: ReconcileSummary['result'], errors: string[] = []): ReconcileSummary =>
  summaryOf({
    track: { kind: 'GitTrack', namespace: 'team', name: 'app' },
    result,
    commit: 'c0ffee',
    reference: 'main',
    errors,
    writes: { status: 1 },
  });

describe('clusterFailure', () => {
  it('fails the invocation (for Lambda to retry) when the API server failed the reconcile', () => {
    const error = clusterFailure(summary('Failed', ['cannot reach the Kubernetes API server at …']), 3);
    expect(isInfrastructureError(error)).toBe(true);
    expect(error?.message).toMatch(/^GitTrack\/team\/app: 3 requests to the API server failed .* c0ffee/);
  });

  it('returns the summary of a commit that failed on its own merits, or of a success', () => {
    expect(clusterFailure(summary('Failed', ['a.yaml:1: bad']), 0)).toBeUndefined();
    expect(clusterFailure(summary('Succeeded'), 2)).toBeUndefined();
  });

  it('never fails the invocation for a git fetch failure, even when an API request failed beside it', () => {
    const failedFetch: ReconcileSummary = {
      ...summary('Failed', ['cannot fetch https://git.example/r: connection refused']),
      fetchBackoff: { failures: 1, retryAfter: '2026-12-02T06:35:00.000Z' },
    };
    expect(clusterFailure(failedFetch, 2)).toBeUndefined();
  });

  it('never fails the invocation for a failed health check alone: the commit applied in full', () => {
    const unhealthy = summary('Failed', [
      'health check failed: healthy 0 of 1, failed 1; Deployment/team/web: …',
    ]);
    expect(clusterFailure(unhealthy, 1)).toBeUndefined();
    const alsoUnreachable = summary('Failed', [
      'cannot reach the Kubernetes API server at …',
      unhealthy.errors[0] ?? '',
    ]);
    expect(isInfrastructureError(clusterFailure(alsoUnreachable, 1))).toBe(true);
  });
});
