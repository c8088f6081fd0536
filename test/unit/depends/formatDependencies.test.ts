import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../lib/cli/formatSummary';
import { summaryOf } from '../../support/reconcileSummary';

const base = summaryOf({
  track: { kind: 'GitTrack', namespace: 'team', name: 'app' },
  result: 'Waiting',
  reference: 'main',
  durationMs: 40,
  writes: { status: 2 },
});

describe('the CLI summary of dependsOn', () => {
  it('names each dependency a waiting track waits for, and why', () => {
    const text = formatSummary({
      ...base,
      heldBack: 'DependencyNotReady',
      waitingFor: [{ track: { kind: 'ClusterGitTrack', name: 'crds' }, reason: 'not reconciled yet' }],
    });
    expect(text.split('\n')).toEqual([
      'GitTrack team/app: Waiting (main, DependencyNotReady) in 0.0s',
      '  0 discovered, 0 applied, 0 in sync, 0 ignored, 0 pruned, 0 failed, 0 conflicts, 0 drifted',
      '  writes: 0 to objects, 2 to status and events',
      'waiting for (spec.dependsOn; nothing applied or pruned):',
      '  ClusterGitTrack/crds: not reconciled yet (unblock: lightkeeper reconcile clustergittrack/crds)',
    ]);
  });

  it('says a refused dependsOn held the run back, not a fetch', () => {
    const text = formatSummary({
      ...base,
      result: 'Failed',
      heldBack: 'DependencyCycle',
      errors: ['dependency cycle: GitTrack/team/app → GitTrack/team/app'],
    });
    expect(text.split('\n')[0]).toBe('GitTrack team/app: Failed (main, DependencyCycle) in 0.0s');
  });

  it('gives the command for each dependent of a track that became Ready', () => {
    const text = formatSummary({
      ...base,
      track: { kind: 'ClusterGitTrack', name: 'crds' },
      result: 'Succeeded',
      commit: 'c'.repeat(40),
      dependents: [
        { track: { kind: 'GitTrack', namespace: 'team', name: 'app' }, sameRepository: true },
        { track: { kind: 'ClusterGitTrack', name: 'platform' }, sameRepository: false },
      ],
    });
    expect(text).toContain(
      [
        'dependents to reconcile next (the reconcile function invokes them):',
        '  lightkeeper reconcile gittrack/app -n team',
        '  lightkeeper reconcile clustergittrack/platform',
      ].join('\n'),
    );
  });
});
