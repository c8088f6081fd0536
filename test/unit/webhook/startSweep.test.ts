import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startSweep, sweepScopeOf } from '../../../lib/lambda/startSweep';
import type { ListedTrack } from '../../../lib/track/listedTrack';

const tracks: ListedTrack[] = Array.from({ length: 25 }, (_, i) => ({
  ref: { kind: 'GitTrack', namespace: 'team', name: `t${i}` },
  spec: { repository: 'https://example.com/r', reference: 'main', suspend: i % 5 === 0 },
}));

describe('startSweep', () => {
  it('starts a drift reconcile of every enabled track, a bounded number at a time', async () => {
    let inFlight = 0;
    let peak = 0;
    const started: string[] = [];
    const result = await startSweep(
      tracks,
      async (event) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        // One start's work: it must last long enough for the others to overlap it.
        await sleep(5);
        inFlight--;
        expect(event).toMatchObject({ mode: 'drift', reason: 'sweep now' });
        started.push(event.track.name);
      },
      { concurrency: 3, reason: 'sweep now' },
    );
    expect(result).toEqual({ started: 20, skipped: 5, failed: [], backedOff: [] });
    expect(peak).toBe(3);
    expect(started).not.toContain('t0');
  });

  it('reports the reconciles it could not start', async () => {
    const result = await startSweep(tracks.slice(1, 3), async (event) => {
      if (event.track.name === 't2') throw new Error('throttled');
    });
    expect(result).toMatchObject({ started: 1, skipped: 0, failed: [{ track: { name: 't2' } }] });
  });

  it('in scope unobserved, applies only tracks whose spec no reconcile has seen, suspended ones too', async () => {
    const seen: string[] = [];
    const generations: ListedTrack[] = [
      { ...tracks[1], generation: 1, observedGeneration: 1 } as ListedTrack,
      { ...tracks[2], ref: { ...tracks[2]!.ref, name: 'new' }, generation: 1 } as ListedTrack,
      {
        ...tracks[3],
        ref: { ...tracks[3]!.ref, name: 'changed' },
        generation: 3,
        observedGeneration: 2,
      } as ListedTrack,
      { ...tracks[0], ref: { ...tracks[0]!.ref, name: 'suspended-new' }, generation: 1 } as ListedTrack,
    ];
    const result = await startSweep(
      generations,
      async (event) => {
        expect(event).toMatchObject({ mode: 'apply', reason: 'new or changed track' });
        seen.push(event.track.name);
      },
      { scope: 'unobserved' },
    );
    expect(seen.sort()).toEqual(['changed', 'new', 'suspended-new']);
    expect(result).toEqual({ started: 3, skipped: 1, failed: [], backedOff: [] });
  });

  it('in scope unobserved, also applies a track whose lightkeeper.dev/requestedAt no run has handled', async () => {
    const seen: string[] = [];
    const observed = { generation: 2, observedGeneration: 2 };
    const listed: ListedTrack[] = [
      {
        ...tracks[1],
        ref: { ...tracks[1]!.ref, name: 'asked' },
        ...observed,
        requestedAt: 'b',
        lastHandledRequestedAt: 'a',
      } as ListedTrack,
      {
        ...tracks[2],
        ref: { ...tracks[2]!.ref, name: 'handled' },
        ...observed,
        requestedAt: 'a',
        lastHandledRequestedAt: 'a',
      } as ListedTrack,
      {
        ...tracks[3],
        ref: { ...tracks[3]!.ref, name: 'first-ask' },
        ...observed,
        requestedAt: 'a',
      } as ListedTrack,
      { ...tracks[4], ref: { ...tracks[4]!.ref, name: 'never-asked' }, ...observed } as ListedTrack,
    ];
    const result = await startSweep(
      listed,
      async (event) => {
        expect(event).toMatchObject({ mode: 'apply', reason: expect.stringMatching(/^requested at [ab]$/) });
        seen.push(event.track.name);
      },
      { scope: 'unobserved' },
    );
    expect(seen.sort()).toEqual(['asked', 'first-ask']);
    expect(result).toMatchObject({ started: 2, skipped: 2 });
  });

  it('asks once for a hostile requestedAt, naming it by its digest, and sees it handled by that digest', async () => {
    const hostile = `now\n${'x'.repeat(100_000)}`;
    const observed = {
      ...tracks[1],
      generation: 2,
      observedGeneration: 2,
      requestedAt: hostile,
    } as ListedTrack;
    const reasons: Array<string | undefined> = [];
    const trigger = async (event: { reason?: string }) => void reasons.push(event.reason);
    await startSweep([observed], trigger, { scope: 'unobserved' });
    expect(reasons).toEqual([expect.stringMatching(/^requested at sha256:[0-9a-f]{16}$/)]);
    // The run recorded that digest as handled: the every-minute check stops asking.
    const handled = reasons[0]?.replace('requested at ', '');
    const after = await startSweep([{ ...observed, lastHandledRequestedAt: handled }], trigger, {
      scope: 'unobserved',
    });
    expect(after).toMatchObject({ started: 0, skipped: 1 });
    expect(reasons).toHaveLength(1);
  });

  it('leaves a track in fetch backoff to its retryAfter, and says so; a changed one runs at once', async () => {
    const now = new Date('2026-12-02T06:30:00.000Z');
    const backoff = { failures: 3, retryAfter: '2026-12-02T06:50:00.000Z' };
    const listed: ListedTrack[] = [
      { ...tracks[1], ref: { ...tracks[1]!.ref, name: 'stalling' }, fetchBackoff: backoff } as ListedTrack,
      {
        ...tracks[2],
        ref: { ...tracks[2]!.ref, name: 'due' },
        fetchBackoff: { failures: 1, retryAfter: '2026-12-02T06:30:30.000Z' },
      } as ListedTrack,
      { ...tracks[3], ref: { ...tracks[3]!.ref, name: 'healthy' } } as ListedTrack,
    ];
    const drift: string[] = [];
    const result = await startSweep(listed, async (e) => void drift.push(e.track.name), { now });
    expect(drift.sort()).toEqual(['due', 'healthy']);
    expect(result).toEqual({
      started: 2,
      skipped: 1,
      failed: [],
      backedOff: [{ track: listed[0]!.ref, ...backoff }],
    });

    const changed = [{ ...listed[0], generation: 2, observedGeneration: 1 } as ListedTrack];
    const applied: string[] = [];
    const unobserved = await startSweep(changed, async (e) => void applied.push(e.track.name), {
      now,
      scope: 'unobserved',
    });
    expect(applied).toEqual(['stalling']);
    expect(unobserved.backedOff).toEqual([]);
  });

  it('reads its scope from the scheduled event', () => {
    expect(sweepScopeOf({ scope: 'unobserved' })).toBe('unobserved');
    expect(sweepScopeOf({ 'detail-type': 'Scheduled Event' })).toBe('all');
    expect(sweepScopeOf(undefined)).toBe('all');
  });
});
