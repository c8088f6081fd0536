import { describe, expect, it } from 'vitest';
import { type IdentityTrack, trackIdentity } from '../../../lib/identity/trackIdentity';
import { loadDeploymentConfig } from '../../../lib/settings/deploymentModes';

const config = loadDeploymentConfig({});
const gitTrack = (serviceAccountName?: string): IdentityTrack => ({
  kind: 'GitTrack',
  metadata: { name: 'app', namespace: 'team' },
  spec: { serviceAccountName },
});

describe('the identity table', () => {
  it("acts for a GitTrack as its own service account, else the deployment's default, never as the reconciler", () => {
    expect(trackIdentity(gitTrack('deployer'), config)).toEqual({
      kind: 'ServiceAccount',
      namespace: 'team',
      name: 'deployer',
      user: 'system:serviceaccount:team:deployer',
    });
    expect(trackIdentity(gitTrack(), config)).toMatchObject({ user: 'system:serviceaccount:team:default' });
    const locked = loadDeploymentConfig({ LIGHTKEEPER_DEFAULT_SERVICE_ACCOUNT: 'tenant' });
    expect(trackIdentity(gitTrack(), locked)).toMatchObject({ user: 'system:serviceaccount:team:tenant' });
    expect(trackIdentity(gitTrack('deployer'), locked)).toMatchObject({ name: 'deployer' });
  });

  it('acts for a ClusterGitTrack as the reconciler, whatever it names', () => {
    const track: IdentityTrack = {
      kind: 'ClusterGitTrack',
      metadata: { name: 'platform' },
      spec: { serviceAccountName: 'x' },
    };
    expect(trackIdentity(track, config)).toEqual({ kind: 'Reconciler' });
  });

  it('refuses a service account name that would not name a service account', () => {
    expect(() => trackIdentity(gitTrack('other-ns:admin'), config)).toThrow(
      /GitTrack\/team\/app: spec.serviceAccountName other-ns:admin is not a valid service account name/,
    );
  });
});
