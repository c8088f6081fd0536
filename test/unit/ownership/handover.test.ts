import { describe, expect, it } from 'vitest';
import { OwnershipError } from '../../../lib/errors';
import { handoverState, type LiveOwnerReference, referencesAfter } from '../../../lib/ownership/handover';
import type { OwnerReference } from '../../../lib/ownership/ownerReference';

const faros: LiveOwnerReference = {
  apiVersion: 'faros.pusher.com/v1alpha1',
  kind: 'GitTrackObject',
  name: 'configmap-web',
  uid: 'faros-uid',
  controller: true,
  blockOwnerDeletion: true,
};
const ours: OwnerReference = {
  apiVersion: 'lightkeeper.dev/v1alpha1',
  kind: 'GitTrackObject',
  name: 'configmap-web-0123456789',
  uid: 'ours-uid',
  controller: true,
  blockOwnerDeletion: true,
};
const bystander: LiveOwnerReference = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name: 'other',
  uid: 'other-uid',
};

/** Every state the three writes pass through, from Faros' reference to ours. */
function walk(start: LiveOwnerReference[]) {
  const seen: Array<{ step: string; refs: LiveOwnerReference[] }> = [];
  let refs = start;
  for (let i = 0; i < 5; i++) {
    const state = handoverState(refs, faros.uid, ours);
    seen.push({ step: state.step, refs });
    if (state.step === 'done' || state.step === 'conflict') break;
    refs = referencesAfter(state.step, refs, faros.uid, ours);
  }
  return seen;
}

describe('the hand-over of a child from Faros to lightkeeper', () => {
  it('adds ours as non-controller, releases Faros, then makes ours the controller', () => {
    const steps = walk([faros, bystander]);
    expect(steps.map((s) => s.step)).toEqual(['add', 'release', 'control', 'done']);
    expect(steps[1]?.refs).toEqual([faros, bystander, { ...ours, controller: false }]);
    expect(steps[2]?.refs).toEqual([bystander, { ...ours, controller: false }]);
    expect(steps[3]?.refs).toEqual([bystander, ours]);
  });

  it('never leaves a state without an owner, and never two controllers', () => {
    for (const { refs } of walk([faros])) {
      expect(refs.length).toBeGreaterThan(0);
      expect(refs.filter((r) => r.controller).length).toBeLessThanOrEqual(1);
    }
  });

  it('resumes at the step an interrupted run left the child at', () => {
    expect(handoverState([faros, { ...ours, controller: false }], faros.uid, ours).step).toBe('release');
    expect(handoverState([{ ...ours, controller: false }], faros.uid, ours).step).toBe('control');
    expect(handoverState([ours], faros.uid, ours).step).toBe('done');
    // Faros' reference already gone (orphaned): ours is added, then made the controller.
    expect(walk([]).map((s) => s.step)).toEqual(['add', 'control', 'done']);
  });

  it('takes nothing another controller holds', () => {
    const other = { ...bystander, controller: true };
    expect(handoverState([other], faros.uid, ours)).toEqual({
      step: 'conflict',
      reason: 'it is controlled by ConfigMap other',
    });
  });

  it('refuses to release the previous owner before ours is there', () => {
    expect(() => referencesAfter('release', [faros], faros.uid, ours)).toThrow(OwnershipError);
  });
});
