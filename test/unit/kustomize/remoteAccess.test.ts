import { describe, expect, it } from 'vitest';
import { remoteAccess, remoteAccessFlags } from '../../../lib/kustomize/remoteAccess';
import { loadDeploymentConfig } from '../../../lib/settings/deploymentModes';
import { parseRemoteHosts } from '../../../lib/settings/remoteHosts';

describe('remote kustomize content is the platform’s decision', () => {
  it('gives a GitTrack only the deployment’s hosts, whatever its spec says', () => {
    expect(remoteAccess('GitTrack', { allowRemote: true })).toEqual({ kind: 'allowListed', hosts: [] });
    expect(remoteAccessFlags(remoteAccess('GitTrack', { allowRemote: true }))).toEqual([
      '-allow-remote',
      '-remote-hosts',
      '',
    ]);
    expect(
      remoteAccessFlags(remoteAccess('GitTrack', { allowRemote: true }, ['github.com', 'git.corp:8443'])),
    ).toEqual(['-allow-remote', '-remote-hosts', 'github.com,git.corp:8443']);
    expect(remoteAccess('GitTrack', {}, ['github.com'])).toEqual({ kind: 'none' });
    expect(remoteAccessFlags({ kind: 'none' })).toEqual([]);
  });

  it('gives the platform’s ClusterGitTrack public hosts too, never without its own allowRemote', () => {
    expect(remoteAccessFlags(remoteAccess('ClusterGitTrack', { allowRemote: true }, ['git.corp']))).toEqual([
      '-allow-remote',
      '-remote-hosts',
      'git.corp',
      '-remote-public',
    ]);
    expect(remoteAccess('ClusterGitTrack', { allowRemote: false }, ['git.corp'])).toEqual({ kind: 'none' });
  });

  it('reads LIGHTKEEPER_KUSTOMIZE_REMOTE_HOSTS once, and refuses what is no host', () => {
    expect(parseRemoteHosts(' GitHub.com, git.corp:8443 ,,[fd00::1]:443 ')).toEqual([
      'github.com',
      'git.corp:8443',
      '[fd00::1]:443',
    ]);
    expect(
      loadDeploymentConfig({ LIGHTKEEPER_KUSTOMIZE_REMOTE_HOSTS: 'github.com' }).kustomizeRemoteHosts,
    ).toEqual(['github.com']);
    for (const bad of ['https://github.com', '*.corp', 'github.com/acme', 'a b'])
      expect(() => parseRemoteHosts(bad)).toThrow(
        /LIGHTKEEPER_KUSTOMIZE_REMOTE_HOSTS: ".*" is not a host or host:port/,
      );
  });
});
