import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../lib/errors';
import { summarizeHealth } from '../../../lib/health/summarizeHealth';
import { current, failed, inProgress } from '../../../lib/kstatus/health';
import { healthVerdict, verdictChanged } from '../../../lib/kstatus/healthVerdict';
import { parseDuration } from '../../../lib/kstatus/parseDuration';
import { healthyCondition } from '../../../lib/reconcile/conditions';

/** The summary and the `Healthy` condition conclude() words from it. */
const assess = (...args: Parameters<typeof summarizeHealth>) => {
  const { health, finding } = summarizeHealth(...args);
  return { health, condition: healthyCondition(health, finding) };
};

const now = Date.parse('2026-06-01T12:00:00Z');
const progressing = inProgress('LessAvailable', 'Available: 0/1');

describe('healthVerdict', () => {
  it('maps current, failed and in-progress children to True, False and Unknown', () => {
    expect(healthVerdict(current('ok'), { now })).toMatchObject({ status: 'True', counted: 'healthy' });
    expect(healthVerdict(failed('JobFailed', 'x'), { now })).toMatchObject({
      status: 'False',
      reason: 'JobFailed',
    });
    expect(healthVerdict(progressing, { now })).toMatchObject({ status: 'Unknown', reason: 'Progressing' });
  });

  it('never times out without a health timeout', () => {
    const previous = { type: 'Healthy', status: 'Unknown', lastTransitionTime: '2026-01-01T00:00:00Z' };
    expect(healthVerdict(progressing, { now, previous }).status).toBe('Unknown');
  });

  it('times out a child applied by this run once the timeout has passed since the apply', () => {
    expect(healthVerdict(progressing, { now, timeoutMs: 60_000, appliedAt: now - 59_000 }).status).toBe(
      'Unknown',
    );
    expect(healthVerdict(progressing, { now, timeoutMs: 60_000, appliedAt: now - 60_000 })).toMatchObject({
      status: 'False',
      reason: 'HealthCheckTimeout',
      message: 'not healthy within 1m: Available: 0/1',
    });
  });

  it('times out a child left alone from when its condition stopped being True (what the sweep sees)', () => {
    const since = (t: string, status = 'Unknown') => ({ type: 'Healthy', status, lastTransitionTime: t });
    expect(
      healthVerdict(progressing, { now, timeoutMs: 120_000, previous: since('2026-06-01T11:59:00Z') }).status,
    ).toBe('Unknown');
    expect(
      healthVerdict(progressing, { now, timeoutMs: 120_000, previous: since('2026-06-01T11:57:00Z') }).status,
    ).toBe('False');
    // Timed out before and left alone: it stays timed out, whatever its condition's transition time.
    const timedOut = { ...since(new Date(now).toISOString(), 'False'), reason: 'HealthCheckTimeout' };
    expect(healthVerdict(progressing, { now, timeoutMs: 120_000, previous: timedOut }).reason).toBe(
      'HealthCheckTimeout',
    );
    // …until this run applies it again: the clock restarts at the apply.
    expect(
      healthVerdict(progressing, { now, timeoutMs: 120_000, previous: timedOut, appliedAt: now }).status,
    ).toBe('Unknown');
    // Just turned from healthy to progressing: the clock starts now.
    expect(
      healthVerdict(progressing, { now, timeoutMs: 120_000, previous: since('2026-01-01T00:00:00Z', 'True') })
        .status,
    ).toBe('Unknown');
  });

  it('keeps a reason the CRD would refuse out of the condition', () => {
    expect(healthVerdict(failed('no such reason!', 'x'), { now }).reason).toBe('Unhealthy');
  });

  it('asks for a write only when status, reason or message changed', () => {
    const verdict = healthVerdict(current('ok'), { now });
    const same = {
      type: 'Healthy',
      status: 'True',
      reason: 'Current',
      message: 'ok',
      lastTransitionTime: 'x',
    };
    expect(verdictChanged(verdict, same)).toBe(false);
    expect(verdictChanged(verdict, { ...same, message: 'other' })).toBe(true);
    expect(verdictChanged(verdict, undefined)).toBe(true);
  });

  it('does not rewrite a child still progressing for its progress message alone', () => {
    const verdict = healthVerdict(inProgress('LessReplicas', 'Replicas: 1/3'), { now });
    const before = {
      type: 'Healthy',
      status: 'Unknown',
      reason: 'Progressing',
      message: 'Replicas: 0/3',
      lastTransitionTime: 'x',
    };
    expect(verdictChanged(verdict, before)).toBe(false);
    expect(verdictChanged(healthVerdict(current('ok'), { now }), before)).toBe(true);
    expect(verdictChanged(healthVerdict(failed('Failed', 'crash'), { now }), before)).toBe(true);
  });
});

describe('summarizeHealth', () => {
  const v = (subject: string, h: Parameters<typeof healthVerdict>[0]) => ({
    subject,
    verdict: healthVerdict(h, { now }),
  });

  it('is Healthy when every child is', () => {
    const { health, condition } = assess([v('ConfigMap/a', current('ok')), v('ConfigMap/b', current('ok'))]);
    expect(health).toEqual({ healthy: 2, progressing: 0, failed: 0, unhealthy: [] });
    expect(condition).toEqual({ status: 'True', reason: 'Healthy', message: 'healthy 2 of 2' });
  });

  it('is Progressing while some are, and HealthCheckFailed once one failed, naming failed ones first', () => {
    const progressingOnly = assess([
      v('ConfigMap/a', current('ok')),
      v('Deployment.apps/ns/web', progressing),
    ]);
    expect(progressingOnly.condition).toMatchObject({ status: 'Unknown', reason: 'Progressing' });
    const mixed = assess([
      v('Deployment.apps/ns/web', progressing),
      v('Job.batch/ns/migrate', failed('JobFailed', 'Job Failed. failed: 6/1')),
    ]);
    expect(mixed.condition.status).toBe('False');
    expect(mixed.condition.reason).toBe('HealthCheckFailed');
    expect(mixed.condition.message.split('\n')).toEqual([
      'healthy 0 of 2, progressing 1, failed 1',
      'Job.batch/ns/migrate: Job Failed. failed: 6/1',
      'Deployment.apps/ns/web: Available: 0/1',
    ]);
  });

  it('names at most five and counts the rest', () => {
    const many = Array.from({ length: 8 }, (_, i) => v(`ConfigMap/c${i}`, failed('X', 'bad')));
    const { health, condition } = assess(many);
    expect(health.unhealthy).toHaveLength(5);
    expect(condition.message).toMatch(/…and 3 more$/);
  });
});

describe('parseDuration', () => {
  it('reads Go durations', () => {
    expect(parseDuration('2m', 's')).toBe(120_000);
    expect(parseDuration('1h30m', 's')).toBe(5_400_000);
    expect(parseDuration('1.5s', 's')).toBe(1_500);
    expect(parseDuration('250ms', 's')).toBe(250);
  });

  it('refuses anything else, naming the field', () => {
    expect(() => parseDuration('2 minutes', 'GitTrack/ns/x spec.healthTimeout')).toThrow(ConfigError);
    expect(() => parseDuration('120', 'GitTrack/ns/x spec.healthTimeout')).toThrow(/spec.healthTimeout/);
  });
});
