import { describe, expect, it } from 'vitest';
import { healthVerdict } from '../../../lib/kstatus/healthVerdict';
import { objectHealth } from '../../../lib/kstatus/objectHealth';
import { healthAtCreate, healthyAtApply } from '../../../lib/tracker/healthyCondition';

const now = new Date('2026-11-30T12:00:00Z');
const earlier = '2026-11-29T08:00:00Z';
const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' } };
// A Deployment as the server answers its creation: no status yet.
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', generation: 1 },
  spec: { replicas: 2 },
  status: {},
};

describe('healthyAtApply', () => {
  it('records the health step’s own verdict for a child current by its content', () => {
    const verdict = healthVerdict(objectHealth(configMap, now.getTime()), { now: now.getTime() });
    expect(healthyAtApply(configMap, undefined, now)).toEqual({
      type: 'Healthy',
      status: 'True',
      reason: verdict.reason,
      message: verdict.message,
      lastTransitionTime: now.toISOString(),
    });
  });

  it('leaves a child still rolling out to the health step', () => {
    expect(healthyAtApply(deployment, undefined, now)).toBeUndefined();
  });

  it('keeps the transition time of a verdict that stays True, and moves it when it turns True', () => {
    const wasTrue = [{ type: 'Healthy', status: 'True', lastTransitionTime: earlier }];
    const wasFalse = [{ type: 'Healthy', status: 'False', lastTransitionTime: earlier }];
    expect(healthyAtApply(configMap, wasTrue, now)?.lastTransitionTime).toBe(earlier);
    expect(healthyAtApply(configMap, wasFalse, now)?.lastTransitionTime).toBe(now.toISOString());
  });
});

describe('healthAtCreate', () => {
  it('judges a manifest as the health step would: current by content, or progressing', () => {
    expect(healthAtCreate(configMap, now)).toMatchObject({ type: 'Healthy', status: 'True' });
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'w' },
      spec: { replicas: 2 },
    };
    expect(healthAtCreate(deployment, now)).toMatchObject({
      type: 'Healthy',
      status: 'Unknown',
      reason: 'Progressing',
      lastTransitionTime: now.toISOString(),
    });
  });
});
