import { describe, expect, it } from 'vitest';
import { trackManifest } from '../../../lib/cli/trackManifest';

const url = 'https://github.com/acme/apps.git';

describe('trackManifest', () => {
  it('builds a GitTrack with the options given, and only those', () => {
    expect(
      trackManifest('GitTrack', 'apps', 'team-a', {
        url,
        tag: 'v1.2.0',
        path: './deploy/',
        serviceAccount: 'deployer',
        secretRef: 'git-token',
      }),
    ).toEqual({
      apiVersion: 'lightkeeper.dev/v1alpha1',
      kind: 'GitTrack',
      metadata: { name: 'apps', namespace: 'team-a' },
      spec: {
        repository: url,
        reference: 'v1.2.0',
        subPath: 'deploy',
        auth: { type: 'token', secretRef: { name: 'git-token' } },
        serviceAccountName: 'deployer',
      },
    });
  });

  it('builds a ClusterGitTrack: branch main by default, a Secret as NAMESPACE/NAME, a default namespace', () => {
    expect(
      trackManifest('ClusterGitTrack', 'platform', undefined, {
        url,
        secretRef: 'flux-system/git',
        authType: 'basic',
        defaultNamespace: 'platform',
        prune: false,
      }),
    ).toEqual({
      apiVersion: 'lightkeeper.dev/v1alpha1',
      kind: 'ClusterGitTrack',
      metadata: { name: 'platform' },
      spec: {
        repository: url,
        reference: 'main',
        auth: { type: 'basic', secretRef: { name: 'git', namespace: 'flux-system' } },
        defaultNamespace: 'platform',
        prune: false,
      },
    });
  });

  it('builds a GitTrack reading a GitHub App Secret in Flux’s format', () => {
    expect(
      trackManifest('GitTrack', 'app', 'team-a', { url, secretRef: 'github-app', authType: 'githubApp' })
        .spec,
    ).toMatchObject({ auth: { type: 'githubApp', secretRef: { name: 'github-app' } } });
  });

  it.each([
    ['an invalid name', () => trackManifest('GitTrack', 'My_App', 'a', { url }), /not a valid name/],
    [
      'an invalid namespace',
      () => trackManifest('GitTrack', 'a', 'Team A', { url }),
      /not a valid namespace/,
    ],
    [
      'an ssh URL',
      () => trackManifest('GitTrack', 'a', 'a', { url: 'git@github.com:a/b.git' }),
      /only http\(s\)/,
    ],
    ['not a URL', () => trackManifest('GitTrack', 'a', 'a', { url: 'github.com/a/b' }), /is not a URL/],
    [
      'credentials in the URL',
      () => trackManifest('GitTrack', 'a', 'a', { url: 'https://x:tok@github.com/a/b' }),
      /must not carry credentials/,
    ],
    [
      'two references',
      () => trackManifest('GitTrack', 'a', 'a', { url, branch: 'b', tag: 't' }),
      /not --branch and --tag/,
    ],
    [
      'a short --commit',
      () => trackManifest('GitTrack', 'a', 'a', { url, commit: 'abc1234' }),
      /not a full commit SHA/,
    ],
    [
      'a path out of the repository',
      () => trackManifest('GitTrack', 'a', 'a', { url, path: '../x' }),
      /without '\.\.'/,
    ],
    [
      'a service account on a ClusterGitTrack',
      () => trackManifest('ClusterGitTrack', 'a', undefined, { url, serviceAccount: 'sa' }),
      /is for a GitTrack/,
    ],
    [
      "a ClusterGitTrack's Secret without namespace",
      () => trackManifest('ClusterGitTrack', 'a', undefined, { url, secretRef: 'git' }),
      /NAMESPACE\/NAME/,
    ],
    [
      "a GitTrack's Secret in another namespace",
      () => trackManifest('GitTrack', 'a', 'a', { url, secretRef: 'other/git' }),
      /its own namespace/,
    ],
  ])('refuses %s before anything is sent', (_, build, message) => {
    expect(build).toThrow(message);
    try {
      build();
    } catch (e) {
      expect((e as { code?: string }).code).toBe('ConfigError');
    }
  });
});
