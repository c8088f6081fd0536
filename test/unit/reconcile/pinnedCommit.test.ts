import { describe, expect, it } from 'vitest';
import { isSuspendedFor, pinnedCommit } from '../../../lib/reconcile/pinnedCommit';

const old = 'a'.repeat(40);
const replayed = 'b'.repeat(40);
const pin = { commit: old, by: 'alice', at: '2026-11-30T20:00:00Z' };

describe('pinnedCommit', () => {
  it('follows the reference of an unpinned track', () => {
    expect(pinnedCommit({ reference: 'main' }, {})).toEqual({ reference: 'main', followsPin: false });
  });

  it('keeps a pinned track at its pin when the request names no commit (a sweep, a push)', () => {
    expect(pinnedCommit({ reference: 'main', pin }, {})).toEqual({ reference: old, pin, followsPin: true });
  });

  it('applies a commit the request names, pinned or not', () => {
    expect(pinnedCommit({ reference: 'main' }, { commit: replayed })).toEqual({
      reference: replayed,
      followsPin: false,
    });
    expect(pinnedCommit({ reference: 'main', pin }, { commit: replayed })).toEqual({
      reference: replayed,
      pin,
      followsPin: false,
    });
  });
});

describe('isSuspendedFor', () => {
  it('suspends what follows the track, not a commit someone names', () => {
    expect(isSuspendedFor({ suspend: true }, {})).toBe(true);
    expect(isSuspendedFor({ suspend: true }, { commit: replayed })).toBe(false);
    expect(isSuspendedFor({ suspend: false }, {})).toBe(false);
    expect(isSuspendedFor({}, {})).toBe(false);
  });
});
