import { describe, expect, it } from 'vitest';
import type { Change } from '../../../lib/apply/change';
import { deployedOf } from '../../../lib/reconcile/deployedOf';

const change = (action: Change['action']): Change => ({ subject: `ConfigMap/x/${action}`, action });

describe('deployedOf', () => {
  it('counts the objects now in sync with the commit, of those it has for the track', () => {
    const changes = ['created', 'unchanged', 'skipped', 'failed', 'conflict', 'deleted'].map((a) =>
      change(a as Change['action']),
    );
    expect(deployedOf(changes, 5, false)).toEqual({ extent: 'partial', objects: 3, of: 5 });
    expect(deployedOf(changes.slice(0, 3), 3, false)).toEqual({ extent: 'full', objects: 3, of: 3 });
    expect(deployedOf([change('failed')], 1, false)).toEqual({ extent: 'none', objects: 0, of: 1 });
    expect(deployedOf([], 0, false)).toEqual({ extent: 'full', objects: 0, of: 0 });
  });

  it('says a broken commit, or one whose apply never started, runs nowhere', () => {
    expect(deployedOf([], 4, true)).toEqual({ extent: 'broken', objects: 0, of: 4 });
    expect(deployedOf([], undefined, false)).toEqual({ extent: 'none', objects: 0, of: 0 });
  });
});
