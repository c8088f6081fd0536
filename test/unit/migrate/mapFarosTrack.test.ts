import { describe, expect, it } from 'vitest';
import type { FarosTrack, FarosTracker } from '../../../lib/migrate/farosResources';
import { mapFarosTrack, parsePromotionRef } from '../../../lib/migrate/mapFarosTrack';

const config = {
  gitTrackMode: 'Enabled',
  clusterGitTrackMode: 'IncludeNamespaced',
  defaultServiceAccount: 'deployer',
} as const;

const gitTrack = (spec: Partial<FarosTrack['spec']> = {}): FarosTrack => ({
  kind: 'GitTrack',
  metadata: { name: 'apps', namespace: 'team', uid: 'gt-uid' },
  spec: { repository: 'https://github.com/org/gitops.git', reference: 'main', ...spec },
});
const tracker = (kind: FarosTracker['kind'], namespace?: string): FarosTracker => ({
  kind,
  metadata: { name: 'configmap-x', namespace, uid: `${namespace}-uid` },
  spec: { kind: 'ConfigMap', name: 'x', data: '' },
});

describe('mapFarosTrack', () => {
  it('a legal GitTrack becomes the same GitTrack, acting as the deployment default ServiceAccount', () => {
    const m = mapFarosTrack(
      gitTrack({ subPath: './apps/prod/' }),
      [tracker('GitTrackObject', 'team')],
      config,
    );
    expect(m.target).toEqual({ kind: 'GitTrack', name: 'apps', namespace: 'team' });
    expect(m.spec).toEqual({
      repository: 'https://github.com/org/gitops.git',
      reference: 'main',
      subPath: 'apps/prod',
      serviceAccountName: 'deployer',
    });
    expect(m.blocked).toEqual([]);
  });

  it('a GitTrack whose tracking objects span namespaces is never promoted unless the operator names it', () => {
    const deployKey = { secretName: 'git', key: 'creds', type: 'HTTPBasicAuth' as const };
    const trackers = [tracker('GitTrackObject', 'team'), tracker('GitTrackObject', 'other')];
    const left = mapFarosTrack(gitTrack({ deployKey }), trackers, config);
    expect(left.promotion).toEqual({
      ref: 'GitTrack/team/apps',
      repository: 'https://github.com/org/gitops.git',
      secret: { namespace: 'team', name: 'git' },
      approved: false,
    });
    expect(left.blocked).toEqual([
      "a tenant's GitTrack is never promoted unless you name it: it would become ClusterGitTrack team.apps, acting as the reconciler itself with no rights check, following https://github.com/org/gitops.git with the credentials of Secret team/git; left alone (to promote it: --promote GitTrack/team/apps)",
    ]);
    const named = mapFarosTrack(gitTrack({ deployKey }), trackers, config, {
      promote: new Set(['GitTrack/team/apps']),
      reconcilerNamespace: 'lk-system',
    });
    expect(named.blocked).toEqual([]);
    expect(named.promotion?.approved).toBe(true);
    // The promoted track's credentials move to the reconciler's namespace, out of the tenant's reach.
    expect(named.credentials).toEqual({
      from: { namespace: 'team', name: 'git', key: 'creds' },
      to: { namespace: 'lk-system', name: 'team.git-lightkeeper' },
    });
    expect(named.spec.auth).toEqual({
      type: 'basic',
      secretRef: { name: 'team.git-lightkeeper', namespace: 'lk-system' },
    });
    expect(parsePromotionRef('gittrack.faros.pusher.com/team/apps')).toBe('GitTrack/team/apps');
    expect(parsePromotionRef('ClusterGitTrack/apps')).toBeUndefined();
  });

  it('a GitTrack whose tracking objects sit in other namespaces or cluster scope becomes a ClusterGitTrack when promoted', () => {
    const m = mapFarosTrack(
      gitTrack(),
      [
        tracker('GitTrackObject', 'team'),
        tracker('GitTrackObject', 'other'),
        tracker('ClusterGitTrackObject'),
      ],
      config,
      { promote: new Set(['GitTrack/team/apps']) },
    );
    expect(m.blocked).toEqual([]);
    expect(m.target).toEqual({ kind: 'ClusterGitTrack', name: 'team.apps' });
    expect(m.spec).toMatchObject({ defaultNamespace: 'team' });
    expect(m.spec).not.toHaveProperty('serviceAccountName');
    expect(m.why).toMatch(/in namespace\(s\) other and cluster-scoped/);
  });

  it("maps Faros' HTTPBasicAuth deploy key to a basic-auth Secret beside it", () => {
    const deployKey = { secretName: 'git', key: 'creds', type: 'HTTPBasicAuth' as const };
    const m = mapFarosTrack(gitTrack({ deployKey }), [], config);
    expect(m.credentials).toEqual({
      from: { namespace: 'team', name: 'git', key: 'creds' },
      to: { namespace: 'team', name: 'git-lightkeeper' },
    });
    expect(m.spec.auth).toEqual({ type: 'basic', secretRef: { name: 'git-lightkeeper' } });
    const cluster = mapFarosTrack(
      { ...gitTrack({ deployKey: { ...deployKey, secretNamespace: 'ops' } }), kind: 'ClusterGitTrack' },
      [],
      config,
    );
    expect(cluster.spec.auth).toEqual({
      type: 'basic',
      secretRef: { name: 'git-lightkeeper', namespace: 'ops' },
    });
  });

  it('blocks, saying what to do, what lightkeeper cannot carry over', () => {
    const ssh = mapFarosTrack(
      gitTrack({
        repository: 'git@github.com:org/gitops.git',
        deployKey: { secretName: 'k', key: 'id_rsa' },
      }),
      [],
      config,
    );
    expect(ssh.blocked.join('\n')).toMatch(/not an http\(s\) URL[^\n]*\n.*SSH key/);
    const elsewhere = mapFarosTrack(
      gitTrack({ deployKey: { secretName: 'k', key: 'c', type: 'HTTPBasicAuth', secretNamespace: 'vault' } }),
      [],
      config,
    );
    expect(elsewhere.blocked).toEqual([
      expect.stringMatching(/reads credentials only from its own namespace team/),
    ]);
    const disabled = mapFarosTrack(gitTrack(), [], { ...config, gitTrackMode: 'Disabled' });
    expect(disabled.blocked).toEqual([expect.stringMatching(/GITTRACK_MODE=Disabled/)]);
  });
});
