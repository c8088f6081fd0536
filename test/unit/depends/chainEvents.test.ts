import { describe, expect, it } from 'vitest';
import { behindDependencyEvents } from '../../../lib/lambda/behindDependencyEvents';
import { dependentEvents } from '../../../lib/lambda/dependentEvents';
import type { ReconcileEvent } from '../../../lib/reconcile/reconcileEvent';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import { summaryOf } from '../../support/reconcileSummary';

const head = 'c'.repeat(40);
const event: ReconcileEvent = {
  track: { kind: 'ClusterGitTrack', name: 'crds' },
  mode: 'apply',
  reason: 'push d1',
  push: { after: head, delivery: 'd1' },
};
const base = summaryOf({
  track: event.track,
  commit: head,
  counts: { discovered: 1, applied: 1, inSync: 1 },
  writes: { objects: 1, status: 1 },
});

describe('the events that go on with a dependency chain', () => {
  it('a track Ready anew invokes each dependent at its own head; the push goes only to the same repository', () => {
    const summary: ReconcileSummary = {
      ...base,
      result: 'Succeeded',
      dependents: [
        { track: { kind: 'GitTrack', namespace: 'team', name: 'app' }, sameRepository: true },
        { track: { kind: 'ClusterGitTrack', name: 'other' }, sameRepository: false },
      ],
    };
    expect(dependentEvents(event, summary)).toEqual([
      {
        track: { kind: 'GitTrack', namespace: 'team', name: 'app' },
        mode: 'apply',
        reason: `ClusterGitTrack/crds Ready at ${head} (push d1)`,
        push: { after: head },
      },
      {
        track: { kind: 'ClusterGitTrack', name: 'other' },
        mode: 'apply',
        reason: `ClusterGitTrack/crds Ready at ${head} (push d1)`,
      },
    ]);
    expect(dependentEvents(event, { ...summary, dependents: undefined })).toEqual([]);
  });

  it('a waiting track brings forward only the dependencies that are behind and this deployment serves', () => {
    const summary: ReconcileSummary = {
      ...base,
      track: { kind: 'GitTrack', namespace: 'team', name: 'app' },
      result: 'Waiting',
      waitingFor: [
        {
          track: { kind: 'ClusterGitTrack', name: 'crds' },
          reason: 'Ready at a, not yet at b',
          behind: true,
        },
        { track: { kind: 'GitTrack', namespace: 'team', name: 'db' }, reason: 'not Ready (ParseFailed)' },
      ],
    };
    const all = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'IncludeNamespaced' } as const;
    expect(behindDependencyEvents(all, event, summary)).toEqual([
      {
        track: { kind: 'ClusterGitTrack', name: 'crds' },
        mode: 'apply',
        reason: 'GitTrack/team/app waits for it (push d1)',
      },
    ]);
    const tenantOnly = {
      namespace: 'team',
      gitTrackMode: 'Enabled',
      clusterGitTrackMode: 'Disabled',
    } as const;
    expect(behindDependencyEvents(tenantOnly, event, summary)).toEqual([]);
    expect(behindDependencyEvents(all, event, { ...summary, result: 'Failed' })).toEqual([]);
  });
});
