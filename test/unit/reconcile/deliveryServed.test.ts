import { describe, expect, it } from 'vitest';
import { deliveryServed, recentDeliveriesKept, withDelivery } from '../../../lib/reconcile/deliveryServed';

const after = 'a'.repeat(40);

describe('deliveryServed', () => {
  it('serves a delivery once and a commit once per generation', () => {
    expect(deliveryServed({ recentDeliveries: ['x'] }, { delivery: 'x', after })).toBe(
      'delivery x was already served',
    );
    expect(
      deliveryServed({ generation: 1, observedGeneration: 1, lastAppliedCommit: after }, { after }),
    ).toMatch(/^already applied a{7} at its current generation$/);
    expect(
      deliveryServed({ generation: 2, observedGeneration: 1, lastAppliedCommit: after }, { after }),
    ).toBeUndefined();
    expect(deliveryServed({ lastAppliedCommit: after }, { after })).toBeUndefined();
    expect(deliveryServed({ recentDeliveries: ['x'] }, { delivery: 'y', after })).toBeUndefined();
  });

  it('keeps the newest deliveries, once each', () => {
    let kept: string[] = [];
    for (let i = 0; i < 15; i++) kept = withDelivery(kept, `d${i}`);
    expect(kept).toHaveLength(recentDeliveriesKept);
    expect(kept[0]).toBe('d14');
    expect(withDelivery(['a', 'b'], 'b')).toEqual(['b', 'a']);
  });
});
