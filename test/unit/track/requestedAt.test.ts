import { describe, expect, it } from 'vitest';
import { maxRequestedAtLength, requestedAtProblem, requestToken } from '../../../lib/track/requestedAt';

describe('requestedAt: the tenant-written request stamp', () => {
  it('copies a time stamp as it is, as Flux does', () => {
    for (const value of [
      '2026-12-02T16:25:00Z',
      '2026-12-02T16:25:00.123456789+01:00',
      'now',
      'x'.repeat(64),
    ]) {
      expect(requestedAtProblem(value)).toBeUndefined();
      expect(requestToken(value)).toBe(value);
    }
    expect(requestToken(undefined)).toBeUndefined();
    expect(requestToken('')).toBeUndefined();
  });

  it('refuses to copy a value too long, or with control, format or separator characters', () => {
    expect(requestedAtProblem('x'.repeat(maxRequestedAtLength + 1))).toBe('65 characters, more than 64');
    expect(requestedAtProblem('x'.repeat(200_000))).toBe('200000 characters, more than 64');
    for (const value of [
      'a\nb',
      'a\rb',
      'tab\there',
      'nul\u0000',
      'esc\u001b[31m',
      'bidi\u202e',
      'line\u2028',
    ])
      expect(requestedAtProblem(value), JSON.stringify(value)).toMatch(/control or format characters/);
  });

  it('stands for a refused value by a short digest: the same value, the same digest', () => {
    const hostile = `2026-12-02\n${'A'.repeat(10_000)}`;
    const token = requestToken(hostile);
    expect(token).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(requestToken(hostile)).toBe(token);
    expect(requestToken(`${hostile}!`)).not.toBe(token);
  });
});
