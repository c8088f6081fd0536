import { describe, expect, it } from 'vitest';
import { type HelmTrack, resolveHelmRelease } from '../../../lib/helm/helmSpec';

const gitTrack: HelmTrack = { kind: 'GitTrack', name: 'web', namespace: 'team-a', subPath: 'charts/podinfo' };
const clusterTrack: HelmTrack = { kind: 'ClusterGitTrack', name: 'platform', defaultNamespace: 'infra' };

describe('resolveHelmRelease', () => {
  it("defaults the chart to subPath, the release to the track's name, the namespace to the GitTrack's", () => {
    expect(resolveHelmRelease(gitTrack, {})).toEqual({
      ok: true,
      release: {
        chart: 'charts/podinfo',
        releaseName: 'web',
        namespace: 'team-a',
        valuesFiles: [],
        values: {},
        valuesFrom: [],
      },
    });
  });

  it('takes what the spec says', () => {
    const spec = {
      chart: 'deploy/chart/',
      releaseName: 'podinfo',
      targetNamespace: 'team-a',
      valuesFiles: ['values-prod.yaml'],
      values: { replicaCount: 2 },
    };
    expect(resolveHelmRelease(gitTrack, spec)).toEqual({
      ok: true,
      release: {
        chart: 'deploy/chart',
        releaseName: 'podinfo',
        namespace: 'team-a',
        valuesFiles: ['values-prod.yaml'],
        values: { replicaCount: 2 },
        valuesFrom: [],
      },
    });
  });

  it("refuses a GitTrack's chart rendered into another namespace", () => {
    const resolved = resolveHelmRelease(gitTrack, { targetNamespace: 'kube-system' });
    expect(resolved).toEqual({
      ok: false,
      reason:
        'spec.helm.targetNamespace kube-system is refused: a GitTrack renders its chart into its own namespace (team-a) only',
    });
  });

  it("renders a ClusterGitTrack's chart into its targetNamespace, else its defaultNamespace", () => {
    expect(resolveHelmRelease(clusterTrack, {})).toMatchObject({
      ok: true,
      release: { namespace: 'infra', chart: '' },
    });
    expect(resolveHelmRelease(clusterTrack, { targetNamespace: 'monitoring' })).toMatchObject({
      ok: true,
      release: { namespace: 'monitoring', releaseName: 'platform' },
    });
    expect(resolveHelmRelease({ ...clusterTrack, defaultNamespace: undefined }, {})).toMatchObject({
      ok: false,
    });
  });

  it('refuses a chart path that leaves the repository', () => {
    expect(resolveHelmRelease(gitTrack, { chart: '../other' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^spec\.helm\.chart: invalid subPath/),
    });
  });

  it("reads a GitTrack's valuesFrom in its own namespace, valuesKey values.yaml unless said", () => {
    const valuesFrom = [
      { kind: 'ConfigMap' as const, name: 'base' },
      {
        kind: 'Secret' as const,
        name: 'db',
        valuesKey: 'password',
        targetPath: 'db.password',
        optional: true,
      },
    ];
    expect(resolveHelmRelease(gitTrack, { valuesFrom })).toMatchObject({
      ok: true,
      release: {
        valuesFrom: [
          { kind: 'ConfigMap', namespace: 'team-a', name: 'base', valuesKey: 'values.yaml', optional: false },
          {
            kind: 'Secret',
            namespace: 'team-a',
            name: 'db',
            valuesKey: 'password',
            targetPath: 'db.password',
            optional: true,
          },
        ],
      },
    });
    expect(
      resolveHelmRelease(gitTrack, {
        valuesFrom: [{ kind: 'Secret', name: 'db', namespace: 'kube-system' }],
      }),
    ).toEqual({
      ok: false,
      reason:
        'spec.helm.valuesFrom[0].namespace kube-system is refused: a GitTrack reads values from its own namespace (team-a) only',
    });
  });

  it("reads a ClusterGitTrack's valuesFrom where each names, as its spec.auth.secretRef does", () => {
    expect(
      resolveHelmRelease(clusterTrack, { valuesFrom: [{ kind: 'Secret', name: 'db', namespace: 'vault' }] }),
    ).toMatchObject({ ok: true, release: { valuesFrom: [{ namespace: 'vault', name: 'db' }] } });
    expect(resolveHelmRelease(clusterTrack, { valuesFrom: [{ kind: 'Secret', name: 'db' }] })).toEqual({
      ok: false,
      reason: 'spec.helm.valuesFrom[0] needs a namespace on a ClusterGitTrack',
    });
  });
});
