import { describe, expect, it } from 'vitest';
import { deleteCommands } from '../../../lib/migrate/deleteCommands';

describe('deleteCommands', () => {
  it('one orphaning kubectl delete per kind and namespace, tracking objects before tracks', () => {
    expect(
      deleteCommands([
        { kind: 'GitTrack', namespace: 'a', name: 'team' },
        { kind: 'ClusterGitTrack', name: 'all' },
        { kind: 'GitTrackObject', namespace: 'b', name: 'configmap-y' },
        { kind: 'GitTrackObject', namespace: 'a', name: 'configmap-x' },
        { kind: 'ClusterGitTrackObject', name: 'clusterrole-r' },
        { kind: 'GitTrackObject', namespace: 'a', name: 'configmap-w' },
      ]),
    ).toEqual([
      'kubectl delete gittrackobjects.faros.pusher.com -n a configmap-w configmap-x --cascade=orphan --ignore-not-found',
      'kubectl delete gittrackobjects.faros.pusher.com -n b configmap-y --cascade=orphan --ignore-not-found',
      'kubectl delete clustergittrackobjects.faros.pusher.com clusterrole-r --cascade=orphan --ignore-not-found',
      'kubectl delete gittracks.faros.pusher.com -n a team --cascade=orphan --ignore-not-found',
      'kubectl delete clustergittracks.faros.pusher.com all --cascade=orphan --ignore-not-found',
    ]);
  });

  it('nothing to delete, no command', () => {
    expect(deleteCommands([])).toEqual([]);
  });
});
