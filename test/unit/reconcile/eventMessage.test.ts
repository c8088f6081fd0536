import { describe, expect, it } from 'vitest';
import { eventMessage } from '../../../lib/reconcile/recordEvent';

describe('eventMessage', () => {
  it('puts a message of many lines on one line', () => {
    expect(eventMessage('nothing of abc applied:\n  a.yaml:3: bad\n\nb.yaml:1: worse\n')).toBe(
      'nothing of abc applied: a.yaml:3: bad; b.yaml:1: worse',
    );
    expect(eventMessage('x'.repeat(2000))).toHaveLength(1024);
  });
});
