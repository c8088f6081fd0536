import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sweepScopeOf } from '../../../lib/lambda/startSweep';

// The sweep's two schedules as deployed: the drift sweep, and the every-minute check for tracks
// whose spec no reconcile has seen yet. The event each sends decides the scope.

interface Schedule {
  rate: string;
  input?: unknown;
}
const sls = parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'serverless.yml'), 'utf8')) as {
  functions: { sweep: { events: Array<{ schedule?: Schedule }> } };
};

describe('the sweep schedules', () => {
  it('sweep drift every 5 minutes and new or changed tracks every minute', () => {
    const schedules = sls.functions.sweep.events.flatMap((e) => (e.schedule ? [e.schedule] : []));
    expect(schedules.map((s) => [s.rate, sweepScopeOf(s.input)])).toEqual([
      ['rate(5 minutes)', 'all'],
      ['rate(1 minute)', 'unobserved'],
    ]);
  });
});
