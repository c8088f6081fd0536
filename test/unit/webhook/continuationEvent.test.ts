import { describe, expect, it } from 'vitest';
import { PayloadError } from '../../../lib/errors';
import { continuationEvent } from '../../../lib/lambda/continuationEvent';
import { parseReconcileEvent } from '../../../lib/reconcile/reconcileEvent';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import { summaryOf } from '../../support/reconcileSummary';

const head = 'c'.repeat(40);
const track = { kind: 'GitTrack' as const, namespace: 'team', name: 'app' };
const summary = (result: ReconcileSummary['result']): ReconcileSummary =>
  summaryOf({
    track,
    result,
    commit: head,
    counts: { discovered: 3, applied: 1, inSync: 1 },
    deployed: { extent: 'partial', objects: 1, of: 3 },
    writes: { objects: 1, status: 1 },
  });

describe('continuationEvent', () => {
  it('goes on with the same track, mode and commit the run resolved, marked a continuation', () => {
    const push = { after: head };
    const next = continuationEvent(
      { track, mode: 'drift', reason: 'delivery 42', push },
      summary('Continuing'),
    );
    expect(next).toEqual({
      track,
      commit: head,
      continuation: true,
      mode: 'drift',
      reason: 'delivery 42, continued',
      push,
    });
    // A continuation of a continuation keeps the reason, and still survives the payload check.
    const again = continuationEvent(next as NonNullable<typeof next>, summary('Continuing'));
    expect(again?.reason).toBe('delivery 42, continued');
    expect(parseReconcileEvent(JSON.parse(JSON.stringify(again)))).toMatchObject({
      commit: head,
      continuation: true,
    });
  });

  it('starts nothing for a run that finished', () => {
    for (const result of ['Succeeded', 'Failed', 'Suspended', 'Aborted'] as const)
      expect(continuationEvent({ track, mode: 'apply', reason: 'r' }, summary(result))).toBeUndefined();
  });

  it('is refused without its commit: a continuation never follows the head', () => {
    expect(() => parseReconcileEvent({ track, continuation: true })).toThrow(PayloadError);
    expect(() => parseReconcileEvent({ track, commit: head, continuation: 'yes' })).toThrow(PayloadError);
  });
});
