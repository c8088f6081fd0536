import { describe, expect, it } from 'vitest';
import { loadDeploymentConfig, trackRefusal } from '../../../lib/settings/deploymentModes';

describe('deployment modes', () => {
  it('defaults to every track, namespaced manifests included', () => {
    expect(loadDeploymentConfig({})).toEqual({
      namespace: undefined,
      gitTrackMode: 'Enabled',
      clusterGitTrackMode: 'IncludeNamespaced',
      defaultServiceAccount: 'default',
      kustomizeRemoteHosts: [],
      incrementalMaxFiles: 500,
    });
  });

  it('reads the most changed files of an incremental run; 0 turns it off', () => {
    expect(loadDeploymentConfig({ LIGHTKEEPER_INCREMENTAL_MAX_FILES: '0' }).incrementalMaxFiles).toBe(0);
    expect(() => loadDeploymentConfig({ LIGHTKEEPER_INCREMENTAL_MAX_FILES: 'many' })).toThrow(
      /LIGHTKEEPER_INCREMENTAL_MAX_FILES=many is not accepted/,
    );
  });

  it('reads the default service account of GitTracks once, and refuses one that names none', () => {
    expect(loadDeploymentConfig({ LIGHTKEEPER_DEFAULT_SERVICE_ACCOUNT: 'lightkeeper-tenant' })).toMatchObject(
      {
        defaultServiceAccount: 'lightkeeper-tenant',
      },
    );
    expect(() => loadDeploymentConfig({ LIGHTKEEPER_DEFAULT_SERVICE_ACCOUNT: 'ns:name' })).toThrow(
      'LIGHTKEEPER_DEFAULT_SERVICE_ACCOUNT=ns:name is not accepted: expected a service account name (a DNS subdomain)',
    );
  });

  it('restricts to one namespace with ClusterGitTracks disabled', () => {
    expect(loadDeploymentConfig({ LIGHTKEEPER_NAMESPACE: 'team' })).toMatchObject({
      namespace: 'team',
      clusterGitTrackMode: 'Disabled',
    });
  });

  it.each([
    [
      { LIGHTKEEPER_NAMESPACE: 'team', CLUSTERGITTRACK_MODE: 'IncludeNamespaced' },
      /requires CLUSTERGITTRACK_MODE=Disabled/,
    ],
    [{ LIGHTKEEPER_NAMESPACE: 'team', GITTRACK_MODE: 'Disabled' }, /only serves GitTracks/],
    [{ GITTRACK_MODE: 'Disabled', CLUSTERGITTRACK_MODE: 'Disabled' }, /both Disabled/],
    [
      { GITTRACK_MODE: 'enabled' },
      /GITTRACK_MODE=enabled is not accepted: expected one of Enabled, Disabled/,
    ],
    [{ CLUSTERGITTRACK_MODE: 'All' }, /CLUSTERGITTRACK_MODE=All is not accepted: expected one of/],
  ])('refuses contradictory or unknown settings at start: %o', (env, message) => {
    expect(() => loadDeploymentConfig(env)).toThrow(message);
  });

  it('says why a track is not served', () => {
    const scoped = loadDeploymentConfig({ LIGHTKEEPER_NAMESPACE: 'team' });
    expect(trackRefusal(scoped, { kind: 'GitTrack', namespace: 'team' })).toBeUndefined();
    expect(trackRefusal(scoped, { kind: 'GitTrack', namespace: 'other' })).toMatch(
      /only manages GitTracks in namespace team/,
    );
    expect(trackRefusal(scoped, { kind: 'ClusterGitTrack' })).toMatch(/CLUSTERGITTRACK_MODE=Disabled/);
    expect(
      trackRefusal(loadDeploymentConfig({ GITTRACK_MODE: 'Disabled' }), { kind: 'GitTrack', namespace: 'x' }),
    ).toMatch(/GITTRACK_MODE=Disabled/);
  });
});
