import { describe, expect, it } from 'vitest';
import { PayloadError } from '../../../lib/errors';
import { parseReconcileEvent } from '../../../lib/reconcile/reconcileEvent';

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

  it("carries a GitHub delivery id as the request's delivery, and drops anything else", () => {
    const track = { kind: 'ClusterGitTrack', name: 'all' };
    const delivery = '72d3162e-cc78-11e3-81ab-4c9367dc0958';
    expect(parseReconcileEvent({ track, push: { after: sha, delivery } })).toMatchObject({
      delivery,
      push: { after: sha, delivery },
    });
    const odd = parseReconcileEvent({ track, push: { after: sha, delivery: 'x'.repeat(65) } });
    expect(odd).not.toHaveProperty('delivery');
    expect(odd.push?.delivery).toBeUndefined();
  });

  it("carries a shard's keys only, and refuses a shard without its commit or with a malformed key", () => {
    const track = { kind: 'ClusterGitTrack', name: 'all' };
    const shard = { id: 'team-a~2', planDigest: 'a'.repeat(32) };
    expect(parseReconcileEvent({ track, commit: sha, shard })).toMatchObject({
      commit: sha.toLowerCase(),
      shard,
    });
    const pack = { ...shard, id: 'team-a..team-f' };
    expect(parseReconcileEvent({ track, commit: sha, shard: pack })).toMatchObject({ shard: pack });
    for (const bad of [
      { track, shard },
      { track, commit: sha, shard: { ...shard, id: 'Team_A' } },
      { track, commit: sha, shard: { ...shard, id: 'team-a..team-f~2' } },
      { track, commit: sha, shard: { ...shard, id: 'team-a...b' } },
      { track, commit: sha, shard: { ...shard, planDigest: 'xyz' } },
      { track, commit: sha, shard, continuation: true },
    ])
      expect(() => parseReconcileEvent(bad), JSON.stringify(bad)).toThrow(PayloadError);
  });
});
