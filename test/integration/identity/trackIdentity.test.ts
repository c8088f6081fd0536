import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, kubeClient, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  engine,
  getLive,
  includeNamespaced,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { createRole, grant } from '../../support/tenancy';

// Issue 7, item 1: no GitTrack ever acts with the reconciler's rights. Its children and its git
// credentials Secret are read and written as a service account of its own namespace.

let client: KubeClient;
let server: GitServer;
let privateServer: GitServer;
let e: ReturnType<typeof engine>;
const token = 'tenant-5ecret-token';
beforeAll(async () => {
  client = await kubeClient();
  server = await startGitServer();
  privateServer = await startGitServer({ token });
  e = engine(client);
});
afterAll(async () => {
  e.dispose();
  await client.close();
  await server.close();
  await privateServer.close();
});

const rbac = { apiVersion: 'rbac.authorization.k8s.io/v1', plural: 'rolebindings' };
const tokenSecret = (namespace: string, name: string) =>
  client.request('POST', resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace }), {
    body: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name },
      stringData: { token },
    },
  });

async function repoWith(files: Record<string, string>, on = server) {
  const repo = createRepo(on, uniqueName('identity'));
  const sha = commit(repo, files, 'first');
  return { repo, sha };
}

const auth = (secret: string) => ({ auth: { type: 'token', secretRef: { name: secret } } });

describe('the identity a GitTrack acts as', () => {
  it('is a service account with its groups; the built-in admin role is aggregated', async () => {
    const ns = await freshNamespace(client, 'whoami');
    const tenant = client.impersonating(`system:serviceaccount:${ns}:default`);
    const review = await tenant.request<{ status: { userInfo: { username: string; groups: string[] } } }>(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } },
    );
    expect(review.status.userInfo.username).toBe(`system:serviceaccount:${ns}:default`);
    expect(review.status.userInfo.groups).toEqual(
      expect.arrayContaining([
        'system:serviceaccounts',
        `system:serviceaccounts:${ns}`,
        'system:authenticated',
      ]),
    );
    await expect(tenant.get(resourcePath({ ...configMaps, namespace: ns }))).rejects.toThrow(/forbidden/);
    await grant(client, ns, { clusterRole: 'admin' });
    // The aggregation controller fills `admin` from the edit/view roles; an empty role would deny this.
    await expect(tenant.get(resourcePath({ ...configMaps, namespace: ns }))).resolves.toMatchObject({
      kind: 'ConfigMapList',
    });
  });

  it('cannot grant itself cluster-admin, even as admin of its namespace', async () => {
    const ns = await freshNamespace(client, 'escalate');
    const binding = uniqueName('take-over');
    const { repo } = await repoWith({
      'rb.yaml': yamlOf({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: binding },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
        subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: ns }],
      }),
    });
    // No serviceAccountName: the deployment's default service account, bound to `admin` here.
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const summary = await e.run(track);
    expect(summary.result).toBe('Failed');
    expect(summary.changes).toEqual([
      expect.objectContaining({
        subject: `RoleBinding.rbac.authorization.k8s.io/${ns}/${binding}`,
        action: 'failed',
        message: expect.stringMatching(
          new RegExp(`RoleBinding.*/${binding}.*forbidden.*system:serviceaccount:${ns}:default`, 's'),
        ),
      }),
    ]);
    expect(await getLive(client, rbac, binding, ns)).toBeUndefined();
  });

  it("applies with the default service account's rights, never more", async () => {
    const ns = await freshNamespace(client, 'default-sa');
    const { repo } = await repoWith({ 'cm.yaml': yamlOf(configMap('settings')) });
    const track = await createGitTrack(
      client,
      ns,
      { repository: repo.url, reference: 'main' },
      { access: false },
    );
    const denied = await e.run(track);
    expect(denied.result).toBe('Failed');
    expect(denied.changes[0]?.message).toMatch(
      new RegExp(`forbidden.*system:serviceaccount:${ns}:default`, 's'),
    );
    expect(await getLive(client, configMaps, 'settings', ns)).toBeUndefined();

    await grant(client, ns, { clusterRole: 'edit' });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
    expect(await getLive(client, configMaps, 'settings', ns)).toBeDefined();
  });

  it('honours LIGHTKEEPER_DEFAULT_SERVICE_ACCOUNT', async () => {
    const ns = await freshNamespace(client, 'locked-sa');
    const { repo } = await repoWith({ 'cm.yaml': yamlOf(configMap('settings')) });
    const track = await createGitTrack(
      client,
      ns,
      { repository: repo.url, reference: 'main' },
      { access: false },
    );
    await grant(client, ns, { clusterRole: 'edit' }, 'gitops');
    expect((await e.run(track)).result).toBe('Failed');
    const locked = engine(client, { config: { ...includeNamespaced, defaultServiceAccount: 'gitops' } });
    try {
      expect(await locked.run(track)).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
    } finally {
      locked.dispose();
    }
  });

  it('reads the git credentials Secret as the tenant, never with the reconciler’s rights', async () => {
    const ns = await freshNamespace(client, 'creds');
    const { repo, sha } = await repoWith({ 'cm.yaml': yamlOf(configMap('settings')) }, privateServer);
    await tokenSecret(ns, 'git-creds');
    // May manage ConfigMaps, may not read Secrets.
    await createRole(client, ns, 'configmaps-only', [
      {
        apiGroups: [''],
        resources: ['configmaps'],
        verbs: ['get', 'list', 'create', 'patch', 'update', 'delete'],
      },
    ]);
    await grant(client, ns, { role: 'configmaps-only' });
    const track = await createGitTrack(
      client,
      ns,
      { repository: repo.url, reference: 'main', ...auth('git-creds') },
      { access: false },
    );
    const denied = await e.run(track);
    expect(denied.result).toBe('Failed');
    const fetched = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Fetched');
    expect(fetched).toMatchObject({ status: 'False', reason: 'FetchFailed' });
    expect(fetched?.message).toMatch(new RegExp(`Secret ${ns}/git-creds.*Forbidden`, 's'));
    expect(await getLive(client, configMaps, 'settings', ns)).toBeUndefined();

    await createRole(client, ns, 'read-git-creds', [
      { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
    ]);
    await grant(client, ns, { role: 'read-git-creds' });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', commit: sha });
  });
});
