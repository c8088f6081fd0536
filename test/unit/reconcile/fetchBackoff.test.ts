import { describe, expect, it } from 'vitest';
import {
  driftBackedOff,
  fetchBackoffDelayMs,
  fetchBackoffMessage,
  inFetchBackoff,
  nextFetchBackoff,
  readFetchBackoff,
} from '../../../lib/reconcile/fetchBackoff';

const minutes = (n: number) => n * 60_000;
const now = new Date('2026-12-02T06:30:00.000Z');

describe('fetchBackoff', () => {
  it('waits 5 minutes after the first failure, doubling up to an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 50, 10_000].map(fetchBackoffDelayMs)).toEqual([
      minutes(5),
      minutes(10),
      minutes(20),
      minutes(40),
      minutes(60),
      minutes(60),
      minutes(60),
      minutes(60),
    ]);
  });

  it('counts consecutive failures from the previous backoff', () => {
    const first = nextFetchBackoff(undefined, now);
    expect(first).toEqual({ failures: 1, retryAfter: '2026-12-02T06:35:00.000Z' });
    const third = nextFetchBackoff({ failures: 2, retryAfter: first.retryAfter }, now);
    expect(third).toEqual({ failures: 3, retryAfter: '2026-12-02T06:50:00.000Z' });
    expect(fetchBackoffMessage(third)).toBe(
      'fetch failed 3 times in a row; the sweep retries after 2026-12-02T06:50:00.000Z',
    );
    expect(fetchBackoffMessage(first)).toBe(
      'fetch failed once; the sweep retries after 2026-12-02T06:35:00.000Z',
    );
  });

  it('holds a track back until a minute before retryAfter, so the sweep due then takes it', () => {
    const backoff = { failures: 2, retryAfter: '2026-12-02T06:40:00.000Z' };
    expect(inFetchBackoff(backoff, now)).toBe(true);
    expect(inFetchBackoff(backoff, new Date('2026-12-02T06:38:59.000Z'))).toBe(true);
    expect(inFetchBackoff(backoff, new Date('2026-12-02T06:39:00.000Z'))).toBe(false);
    expect(inFetchBackoff(undefined, now)).toBe(false);
    expect(inFetchBackoff({ failures: 1, retryAfter: 'soon' }, now)).toBe(false);
  });

  it('reads only a well-formed status.fetchBackoff', () => {
    expect(readFetchBackoff({ fetchBackoff: { failures: 2, retryAfter: 'x' } })).toEqual({
      failures: 2,
      retryAfter: 'x',
    });
    expect(readFetchBackoff({ fetchBackoff: null })).toBeUndefined();
    expect(readFetchBackoff({ fetchBackoff: { failures: '2' } })).toBeUndefined();
    expect(readFetchBackoff(undefined)).toBeUndefined();
  });

  it('stops a drift check that waited for the run that backed the track off', () => {
    const status = { fetchBackoff: { failures: 1, retryAfter: '2026-12-02T06:35:00.000Z' } };
    expect(driftBackedOff(status, now)).toBe(
      'backed off: fetch failed once; the sweep retries after 2026-12-02T06:35:00.000Z',
    );
    expect(driftBackedOff(status, new Date('2026-12-02T06:34:30.000Z'))).toBeUndefined();
    expect(driftBackedOff({ lastAppliedCommit: 'c0ffee' }, now)).toBeUndefined();
  });
});
