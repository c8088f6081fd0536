import { describe, expect, it } from 'vitest';
import { PayloadError } from '../../../lib/errors';
import { parseReconcileEvent } from '../../../lib/lambda/reconcileEvent';

const sha = 'ABCDEF0123456789abcdef0123456789abcdef01';

describe('parseReconcileEvent', () => {
  it('accepts GitTrack and ClusterGitTrack requests, defaulting mode and reason', () => {
    expect(parseReconcileEvent({ track: { kind: 'GitTrack', namespace: 'team', name: 'app' } })).toEqual({
      track: { kind: 'GitTrack', namespace: 'team', name: 'app' },
      commit: undefined,
      mode: 'apply',
      reason: 'invoke',
      push: undefined,
    });
    expect(
      parseReconcileEvent({
        track: { kind: 'ClusterGitTrack', name: 'all' },
        commit: sha,
        mode: 'drift',
        reason: 'r',
      }),
    ).toMatchObject({
      track: { kind: 'ClusterGitTrack', name: 'all' },
      commit: sha.toLowerCase(),
      mode: 'drift',
    });
  });

  it('refuses anything else', () => {
    for (const event of [
      null,
      { track: { kind: 'Deployment', name: 'x' } },
      { track: { kind: 'GitTrack', name: 'x' } },
      { track: { kind: 'GitTrack', namespace: 'Bad_NS', name: 'x' } },
      { track: { kind: 'ClusterGitTrack', namespace: 'a', name: 'x' } },
      { track: { kind: 'ClusterGitTrack', name: '../x' } },
      { track: { kind: 'ClusterGitTrack', name: 'x' }, commit: 'main' },
      { track: { kind: 'ClusterGitTrack', name: 'x' }, mode: 'destroy' },
    ]) {
      expect(() => parseReconcileEvent(event), JSON.stringify(event)).toThrow(PayloadError);
    }
  });
});
