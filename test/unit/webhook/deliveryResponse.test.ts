import { describe, expect, it } from 'vitest';
import type { TrackRef } from '../../../lib/track/trackRef';
import { deliveryResponse } from '../../../lib/webhook/deliveryResponse';
import type { PushEvent } from '../../../lib/webhook/parsePush';

const app: TrackRef = { kind: 'GitTrack', namespace: 'team', name: 'app' };
const platform: TrackRef = { kind: 'ClusterGitTrack', name: 'platform' };
const docs: TrackRef = { kind: 'GitTrack', namespace: 'team', name: 'docs' };
const push = { ref: 'refs/heads/main', after: 'a'.repeat(40) } as PushEvent;
const id = { event: 'push', delivery: 'd-1' };

describe('deliveryResponse', () => {
  it('answers refusals with 4xx and a warning, a ping with 200, other events with 202', () => {
    expect(deliveryResponse({ outcome: 'too-large', reason: 'body of 9 bytes exceeds 8' })).toEqual({
      status: 413,
      body: { error: 'body of 9 bytes exceeds 8' },
      logs: [{ level: 'warn', message: 'delivery refused', fields: { reason: 'body of 9 bytes exceeds 8' } }],
      reconcilesTriggered: 0,
    });
    expect(deliveryResponse({ outcome: 'unauthorized', reason: 'signature invalid' })).toMatchObject({
      status: 401,
      body: { error: 'signature invalid' },
    });
    expect(deliveryResponse({ outcome: 'malformed', reason: 'body is not JSON', ...id })).toMatchObject({
      status: 400,
      logs: [{ level: 'warn', fields: { delivery: 'd-1', reason: 'body is not JSON' } }],
    });
    expect(deliveryResponse({ outcome: 'pong', hookId: 7, ...id })).toEqual({
      status: 200,
      body: { pong: true },
      logs: [{ level: 'info', message: 'ping received', fields: { delivery: 'd-1', hook: 7 } }],
      reconcilesTriggered: 0,
    });
    expect(
      deliveryResponse({ outcome: 'ignored', reason: 'event issues is not a push', ...id }),
    ).toMatchObject({
      status: 202,
      body: { ignored: 'event issues is not a push' },
      logs: [{ level: 'info', message: 'delivery ignored' }],
    });
  });

  it('answers 202 with the tracks triggered and skipped', () => {
    const response = deliveryResponse({
      outcome: 'triggered',
      push,
      triggered: [app, platform],
      skipped: [{ track: docs, reason: 'no file under docs/ changed' }],
      failed: [],
      ...id,
    });
    expect(response).toMatchObject({
      status: 202,
      body: {
        triggered: ['GitTrack/team/app', 'ClusterGitTrack/platform'],
        skipped: [{ track: 'GitTrack/team/docs', reason: 'no file under docs/ changed' }],
      },
      logs: [
        {
          level: 'info',
          message: 'delivery accepted',
          fields: { ref: 'refs/heads/main', after: push.after },
        },
      ],
      reconcilesTriggered: 2,
    });
  });

  it('answers 500 when a reconcile could not be started, so GitHub can redeliver', () => {
    const error = new Error('throttled');
    const response = deliveryResponse({
      outcome: 'triggered',
      push,
      triggered: [app, platform],
      skipped: [],
      failed: [{ track: platform, error }],
      ...id,
    });
    expect(response).toEqual({
      status: 500,
      body: {
        error: 'some reconciles could not be started',
        triggered: ['GitTrack/team/app'],
        failed: ['ClusterGitTrack/platform'],
      },
      logs: [
        {
          level: 'error',
          message: 'reconcile not started',
          fields: { track: 'ClusterGitTrack/platform', error },
        },
      ],
      reconcilesTriggered: 1,
    });
  });
});
