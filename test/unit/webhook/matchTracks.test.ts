import { describe, expect, it } from 'vitest';
import { pushPayload } from '../../../lib/localstack/pushPayload';
import type { DeploymentConfig } from '../../../lib/settings/deploymentModes';
import type { ListedTrack } from '../../../lib/track/listedTrack';
import { matchTracks } from '../../../lib/webhook/matchTracks';
import { parsePush } from '../../../lib/webhook/parsePush';

const all: DeploymentConfig = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'IncludeNamespaced' };
const repo = 'https://github.com/codertocat/hello-world';

function gitTrack(name: string, spec: Partial<ListedTrack['spec']> = {}, namespace = 'team'): ListedTrack {
  return {
    ref: { kind: 'GitTrack', namespace, name },
    spec: { repository: repo, reference: 'master', ...spec },
  };
}
function clusterTrack(name: string, spec: Partial<ListedTrack['spec']> = {}): ListedTrack {
  return { ref: { kind: 'ClusterGitTrack', name }, spec: { repository: repo, reference: 'master', ...spec } };
}
const names = (refs: Array<{ name: string }>) => refs.map((r) => r.name);

const masterPush = (touched?: string[]) =>
  parsePush(pushPayload('branch-created', touched ? { touched: { modified: touched } } : {}));

describe('matchTracks', () => {
  it('triggers tracks of the pushed repository in any URL form and branch name', () => {
    const tracks = [
      gitTrack('https'),
      gitTrack('ssh-style', { repository: 'ssh://git@github.com/Codertocat/Hello-World.git' }),
      gitTrack('full-ref', { reference: 'refs/heads/master' }),
      gitTrack('default-branch', { reference: 'HEAD' }),
      clusterTrack('cluster', { repository: 'https://GITHUB.com/Codertocat/Hello-World.git' }),
      gitTrack('other-repo', { repository: 'https://github.com/codertocat/other' }),
      gitTrack('other-host', { repository: 'https://github.example.com/codertocat/hello-world' }),
    ];
    const match = matchTracks(masterPush(), tracks, all);
    expect(names(match.triggered)).toEqual(['https', 'ssh-style', 'full-ref', 'default-branch', 'cluster']);
    expect(match.skipped).toEqual([]);
  });

  it('matches a pushed tag by its name', () => {
    const push = parsePush(pushPayload('tag-created'));
    const match = matchTracks(push, [gitTrack('tag', { reference: 'simple-tag' }), gitTrack('branch')], all);
    expect(names(match.triggered)).toEqual(['tag']);
    expect(match.skipped).toEqual([
      { track: gitTrack('branch').ref, reason: 'tracks master, not refs/tags/simple-tag' },
    ]);
  });

  it('never triggers commit-pinned or suspended tracks', () => {
    const pinned = gitTrack('pinned', { reference: '6113728f27ae82c7b1a177c8d03f9e96e0adf246' });
    const match = matchTracks(masterPush(), [pinned, gitTrack('suspended', { suspend: true })], all);
    expect(match.triggered).toEqual([]);
    expect(match.skipped.map((s) => s.reason)).toEqual([
      'pinned to commit 6113728f27ae82c7b1a177c8d03f9e96e0adf246',
      'suspended',
    ]);
  });

  it('honours the deployment modes', () => {
    const tracks = [gitTrack('a', {}, 'team'), gitTrack('b', {}, 'other'), clusterTrack('c')];
    const only = (config: DeploymentConfig) => names(matchTracks(masterPush(), tracks, config).triggered);
    expect(only({ namespace: 'team', gitTrackMode: 'Enabled', clusterGitTrackMode: 'Disabled' })).toEqual([
      'a',
    ]);
    expect(only({ gitTrackMode: 'Disabled', clusterGitTrackMode: 'ExcludeNamespaced' })).toEqual(['c']);
    expect(only({ gitTrackMode: 'Enabled', clusterGitTrackMode: 'Disabled' })).toEqual(['a', 'b']);
  });

  it('skips a track when no touched file lies under its subPath', () => {
    const tracks = [
      gitTrack('app', { subPath: 'app' }),
      gitTrack('apple', { subPath: 'apple/' }),
      gitTrack('root'),
    ];
    const match = matchTracks(masterPush(['app/deploy.yaml']), tracks, all);
    expect(names(match.triggered)).toEqual(['app', 'root']);
    expect(match.skipped).toEqual([{ track: tracks[1]!.ref, reason: 'no file under apple/ changed' }]);
  });

  it('never skips by subPath when the touched files are unknown', () => {
    const match = matchTracks(masterPush(), [gitTrack('app', { subPath: 'app' })], all);
    expect(names(match.triggered)).toEqual(['app']);
  });

  it('answers a delivery already served, or a commit applied at the current generation, from the listing', () => {
    const push = masterPush();
    const served = { ...gitTrack('served'), recentDeliveries: ['other', 'd-1'] };
    const applied = {
      ...gitTrack('applied'),
      generation: 3,
      observedGeneration: 3,
      lastAppliedCommit: push.after,
    };
    const respecified = {
      ...gitTrack('respecified'),
      generation: 4,
      observedGeneration: 3,
      lastAppliedCommit: push.after,
    };
    const behind = {
      ...gitTrack('behind'),
      generation: 3,
      observedGeneration: 3,
      lastAppliedCommit: '0'.repeat(40),
    };
    const match = matchTracks(push, [served, applied, respecified, behind], all, 'd-1');
    expect(names(match.triggered)).toEqual(['respecified', 'behind']);
    expect(match.skipped.map((s) => s.reason)).toEqual([
      'delivery d-1 was already served',
      `already applied ${push.after.slice(0, 7)} at its current generation`,
    ]);
    // Another delivery of the same commit: the applied track is still served.
    expect(names(matchTracks(push, [served, applied], all, 'd-2').triggered)).toEqual(['served']);
  });
});
