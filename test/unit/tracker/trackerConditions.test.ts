import { describe, expect, it } from 'vitest';
import { healthyCondition, healthyOf } from '../../../lib/tracker/healthyCondition';
import type { LiveTracker } from '../../../lib/tracker/liveTracker';
import { appliedConditions, inSyncCondition } from '../../../lib/tracker/trackerConditions';

const earlier = '2026-11-29T08:00:00Z';
const now = '2026-11-30T12:00:00Z';
const verdict = { status: 'True' as const, reason: 'Current', message: 'Resource is current' };

describe('healthyCondition', () => {
  it('keeps the transition time while the status stays, and caps the message', () => {
    const previous = { type: 'Healthy', status: 'True', lastTransitionTime: earlier };
    expect(healthyCondition(verdict, previous, now)).toEqual({
      type: 'Healthy',
      ...verdict,
      lastTransitionTime: earlier,
    });
    expect(healthyCondition(verdict, { ...previous, status: 'False' }, now).lastTransitionTime).toBe(now);
    expect(healthyCondition(verdict, undefined, now).lastTransitionTime).toBe(now);
    expect(healthyCondition({ ...verdict, message: 'x'.repeat(5000) }, undefined, now).message).toHaveLength(
      4000,
    );
  });

  it('is found among the conditions read', () => {
    expect(healthyOf([{ type: 'InSync' }, { type: 'Healthy', status: 'False' } as never])).toEqual({
      type: 'Healthy',
      status: 'False',
    });
    expect(healthyOf(undefined)).toBeUndefined();
  });
});

describe('appliedConditions', () => {
  const live = {
    status: {
      conditions: [
        { type: 'InSync', status: 'True', lastTransitionTime: earlier },
        { type: 'Healthy', status: 'False', lastTransitionTime: earlier },
        { type: 'Other', status: 'True' },
      ],
    },
  } as unknown as LiveTracker;

  it('writes InSync, keeps its transition time, and keeps the other conditions', () => {
    const [inSync, ...rest] = appliedConditions('c0ffee', live);
    expect(inSync).toMatchObject({
      type: 'InSync',
      status: 'True',
      message: 'applied at c0ffee',
      lastTransitionTime: earlier,
    });
    expect(rest.map((c) => c.type)).toEqual(['Healthy', 'Other']);
  });

  it("puts the apply's Healthy verdict in place of the one the tracking object had", () => {
    const healthy = { type: 'Healthy', status: 'True' };
    expect(appliedConditions('c0ffee', live, healthy).map((c) => [c.type, c.status])).toEqual([
      ['InSync', 'True'],
      ['Healthy', 'True'],
      ['Other', 'True'],
    ]);
  });

  it('starts a new transition when InSync changes', () => {
    expect(inSyncCondition('False', 'ApplyFailed', 'no', live).lastTransitionTime).not.toBe(earlier);
  });
});
