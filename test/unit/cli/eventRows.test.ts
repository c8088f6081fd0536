import { describe, expect, it } from 'vitest';
import { eventTable } from '../../../lib/cli/eventRows';

describe('eventTable', () => {
  it('lists events oldest first, one line each', () => {
    const now = Date.parse('2026-12-02T12:00:00Z');
    const ev = (at: string, reason: string, message: string) => ({
      metadata: { namespace: 'team-a' },
      involvedObject: { kind: 'GitTrack', name: 'apps', namespace: 'team-a' },
      type: 'Normal',
      reason,
      message,
      lastTimestamp: at,
    });
    const { headers, rows } = eventTable(
      [
        ev('2026-12-02T11:59:00Z', 'ReconcileSucceeded', 'applied abc'),
        ev('2026-12-02T11:00:00Z', 'ReconcileFailed', 'one\ntwo'),
      ],
      { allNamespaces: false, now },
    );
    expect(headers).toEqual(['last seen', 'type', 'reason', 'object', 'message']);
    expect(rows).toEqual([
      ['60m', 'Normal', 'ReconcileFailed', 'gittrack/apps', 'one; two'],
      ['60s', 'Normal', 'ReconcileSucceeded', 'gittrack/apps', 'applied abc'],
    ]);
  });
});
