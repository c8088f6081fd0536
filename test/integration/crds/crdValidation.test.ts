import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isKubeApiError } from '../../../lib/errors';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { type LightkeeperKind, lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { freshNamespace, kubeClient, uniqueName } from '../../support/cluster';

let client: KubeClient;
let ns: string;
beforeAll(async () => {
  client = await kubeClient();
  ns = await freshNamespace(client, 'crds');
});
afterAll(() => client.close());

const sha = 'a'.repeat(40);
const digest = `sha256:${'b'.repeat(64)}`;

function create(kind: LightkeeperKind, spec: Record<string, unknown>) {
  const r = lightkeeperResources[kind];
  const namespace = r.namespaced ? ns : undefined;
  const name = uniqueName(kind.toLowerCase());
  return client.request<{ spec: Record<string, unknown> }>('POST', resourcePath({ ...r, namespace }), {
    body: { apiVersion: r.apiVersion, kind, metadata: { name, namespace }, spec },
  });
}

async function rejection(kind: LightkeeperKind, spec: Record<string, unknown>): Promise<string> {
  try {
    await create(kind, spec);
  } catch (e) {
    if (isKubeApiError(e) && e.status === 422) return e.message;
    throw e;
  }
  throw new Error(`${kind} ${JSON.stringify(spec)} was accepted`);
}

const gitTrack = { repository: 'https://git.example/org/repo.git', reference: 'main' };

describe('the CRDs on a real API server', () => {
  it('accepts valid objects of all four kinds and applies defaults', async () => {
    const gt = await create('GitTrack', {
      ...gitTrack,
      subPath: 'apps/shop',
      auth: { type: 'token', secretRef: { name: 'git' } },
      serviceAccountName: 'deployer',
    });
    expect(gt.spec).toMatchObject({ prune: true, allowEmpty: false, suspend: false });
    const cgt = await create('ClusterGitTrack', {
      ...gitTrack,
      reference: sha,
      defaultNamespace: 'default',
      auth: { type: 'basic', secretRef: { name: 'git', namespace: 'lightkeeper' } },
    });
    expect(cgt.spec).toMatchObject({ prune: true, allowEmpty: false });
    const target = { apiVersion: 'v1', kind: 'ConfigMap', name: 'web' };
    const gto = await create('GitTrackObject', { target, source: { path: 'a.yaml', commit: sha }, digest });
    expect(gto.spec.updateStrategy).toBe('Update');
    await create('ClusterGitTrackObject', {
      target: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'view-x' },
      source: { path: 'rbac/role.yaml', commit: sha },
      digest,
      updateStrategy: 'Recreate',
    });
  });

  it('rejects a track without a repository', async () => {
    expect(await rejection('GitTrack', { reference: 'main' })).toMatch(/spec\.repository: Required value/);
    expect(await rejection('ClusterGitTrack', { reference: 'main' })).toMatch(
      /spec\.repository: Required value/,
    );
  });

  it('rejects a repository that is not an http(s) URL', async () => {
    expect(await rejection('GitTrack', { ...gitTrack, repository: 'git@github.com:o/r.git' })).toMatch(
      /spec\.repository/,
    );
  });

  it.each(['../other', 'apps/../../etc', '..', '/abs/path', 'a/..'])(
    'rejects subPath %s',
    async (subPath) => {
      expect(await rejection('GitTrack', { ...gitTrack, subPath })).toMatch(
        /subPath must be a relative path/,
      );
    },
  );

  it('accepts subPaths that only look like dot-dot', async () => {
    await create('GitTrack', { ...gitTrack, subPath: 'a/..b/c..d/.hidden' });
  });

  it('rejects an unknown auth type', async () => {
    expect(
      await rejection('GitTrack', { ...gitTrack, auth: { type: 'ssh', secretRef: { name: 'k' } } }),
    ).toMatch(/spec\.auth\.type: Unsupported value: "ssh"/);
  });

  it('requires a namespace in a ClusterGitTrack secretRef', async () => {
    expect(
      await rejection('ClusterGitTrack', { ...gitTrack, auth: { type: 'token', secretRef: { name: 'k' } } }),
    ).toMatch(/spec\.auth\.secretRef\.namespace: Required value/);
  });

  it('accepts deletionPolicy Delete or Orphan on both track kinds, leaves it unset by default, and nothing else', async () => {
    for (const kind of ['GitTrack', 'ClusterGitTrack'] as const) {
      expect((await create(kind, gitTrack)).spec.deletionPolicy).toBeUndefined();
      for (const deletionPolicy of ['Delete', 'Orphan']) {
        expect((await create(kind, { ...gitTrack, deletionPolicy })).spec.deletionPolicy).toBe(
          deletionPolicy,
        );
      }
      expect(await rejection(kind, { ...gitTrack, deletionPolicy: 'Foreground' })).toMatch(
        /spec\.deletionPolicy: Unsupported value: "Foreground"/,
      );
    }
  });

  it('accepts a pin at a full SHA on both track kinds and rejects anything else', async () => {
    const pin = { commit: sha, by: 'alice', at: '2026-11-30T20:00:00Z' };
    for (const kind of ['GitTrack', 'ClusterGitTrack'] as const) {
      expect((await create(kind, { ...gitTrack, pin })).spec.pin).toEqual(pin);
      expect(await rejection(kind, { ...gitTrack, pin: { commit: 'abc1234' } })).toMatch(/spec\.pin\.commit/);
      expect(await rejection(kind, { ...gitTrack, pin: { commit: 'A'.repeat(40) } })).toMatch(
        /spec\.pin\.commit/,
      );
      expect(await rejection(kind, { ...gitTrack, pin: { by: 'alice' } })).toMatch(
        /spec\.pin\.commit: Required value/,
      );
      expect(await rejection(kind, { ...gitTrack, pin: { commit: sha, at: 'yesterday' } })).toMatch(
        /spec\.pin\.at/,
      );
    }
  });

  it('rejects a bad updateStrategy and a malformed digest', async () => {
    const base = {
      target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x' },
      source: { path: 'x', commit: sha },
    };
    expect(await rejection('GitTrackObject', { ...base, digest, updateStrategy: 'Replace' })).toMatch(
      /spec\.updateStrategy: Unsupported value: "Replace"/,
    );
    expect(await rejection('ClusterGitTrackObject', { ...base, digest: 'md5:abc' })).toMatch(/spec\.digest/);
  });

  it('serves short names, the lightkeeper category and the printer columns', async () => {
    const list = await client.get<{
      resources: Array<{ name: string; shortNames?: string[]; categories?: string[] }>;
    }>('/apis/lightkeeper.dev/v1alpha1');
    const byName = Object.fromEntries(list.resources.map((r) => [r.name, r]));
    expect(byName.gittracks).toMatchObject({ shortNames: ['gt'], categories: ['lightkeeper'] });
    expect(byName.clustergittracks).toMatchObject({ shortNames: ['cgt'], categories: ['lightkeeper'] });
    expect(byName.gittrackobjects).toMatchObject({ shortNames: ['gto'], categories: ['lightkeeper'] });
    expect(byName.clustergittrackobjects).toMatchObject({
      shortNames: ['cgto'],
      categories: ['lightkeeper'],
    });
    expect(byName['gittracks/status']).toBeDefined();

    const table = await client.get<{ columnDefinitions: Array<{ name: string; priority: number }> }>(
      resourcePath({ ...lightkeeperResources.GitTrack, namespace: ns }),
      { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    );
    expect(table.columnDefinitions.map((c) => c.name)).toEqual([
      'Name',
      'Repository',
      'Reference',
      'Commit',
      'Pinned',
      'Applied',
      'InSync',
      'Failed',
      'Partial',
      'Ignored',
      'Ready',
      'Reason',
      'Suspended',
      'Healthy',
      'Age',
      'Message',
    ]);
    expect(table.columnDefinitions.find((c) => c.name === 'Repository')?.priority).toBe(1);
    expect(table.columnDefinitions.find((c) => c.name === 'Message')?.priority).toBe(1);
  });
});
