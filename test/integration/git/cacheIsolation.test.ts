import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
import { fetchCommit, type GitAuth } from '../../../lib/git';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo, type TestRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, kubeClient } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  engine,
  getLive,
  trackStatus,
  yamlOf,
} from '../../support/engine';

const token = 'tok-5ecret-value';

let server: GitServer;
let repo: TestRepo;
let head: string;
const roots: string[] = [];
const newRoot = () => {
  roots.push(mkdtempSync(join(tmpdir(), 'lk-git-cache-')));
  return roots.at(-1)!;
};

beforeAll(async () => {
  server = await startGitServer({ token });
  repo = createRepo(server, 'private');
  head = commit(repo, { 'app.yaml': yamlOf(configMap('private-config', { secret: 'plans' })) }, 'first');
});

afterAll(async () => {
  await server?.close();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('the clone cache', () => {
  it('serves a cached commit only to the credentials that fetched it', async () => {
    const cacheRoot = newRoot();
    const owner = await fetchCommit({
      url: repo.url,
      reference: 'main',
      auth: { type: 'token', token },
      cacheRoot,
    });
    expect(owner.commit).toBe(head);

    for (const auth of [
      undefined,
      { type: 'token', token: 'wr0ng-t0ken-value' },
      { type: 'basic', username: 'me', password: 'wr0ng-t0ken-value' },
    ] satisfies Array<GitAuth | undefined>) {
      const before = server.requests.length;
      const error = await fetchCommit({ url: repo.url, reference: head, auth, cacheRoot }).catch((e) => e);
      expect(hasCode(error, 'GitFetchError')).toBe(true);
      expect(error.message).toBe(`authentication failed for ${repo.url} (HTTP 401)`);
      expect(server.requests.length).toBeGreaterThan(before);
    }

    // The owner's credentials: served from its clone, no request at all.
    const before = server.requests.length;
    expect(
      await fetchCommit({ url: repo.url, reference: head, auth: { type: 'token', token }, cacheRoot }),
    ).toEqual({ commit: owner.commit, dir: owner.dir });
    expect(server.requests.length).toBe(before);
  });

  it("keeps a private commit a track fetched out of another namespace's track", async () => {
    const client: KubeClient = await kubeClient();
    const e = engine(client);
    try {
      const [owner, other] = [await freshNamespace(client, 'owner'), await freshNamespace(client, 'other')];
      for (const ns of [owner, other]) await bindTenantAdmin(client, ns);
      await client.request('POST', resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace: owner }), {
        body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'git' }, stringData: { token } },
      });
      const ownerTrack = await createGitTrack(client, owner, {
        repository: repo.url,
        reference: 'main',
        auth: { type: 'token', secretRef: { name: 'git' } },
      });
      expect((await e.run(ownerTrack)).result).toBe('Succeeded');
      expect(await getLive(client, configMaps, 'private-config', owner)).toBeDefined();

      // Another tenant who learnt the SHA (from a tracking object or an Event) pins it, without credentials.
      const otherTrack = await createGitTrack(client, other, { repository: repo.url, reference: head });
      const summary = await e.run(otherTrack);
      expect(summary.result).toBe('Failed');
      expect(summary.errors).toEqual([`authentication failed for ${repo.url} (HTTP 401)`]);
      expect(
        (await trackStatus(client, otherTrack)).conditions.find((c) => c.type === 'Fetched'),
      ).toMatchObject({
        status: 'False',
        message: `authentication failed for ${repo.url} (HTTP 401)`,
      });
      expect(await getLive(client, configMaps, 'private-config', other)).toBeUndefined();
    } finally {
      e.dispose();
      await client.close();
    }
  });
});

/** Tenants are given the built-in `admin` role in their namespace, as users do. */
async function bindTenantAdmin(client: KubeClient, namespace: string): Promise<void> {
  await client.request(
    'POST',
    resourcePath({ apiVersion: 'rbac.authorization.k8s.io/v1', plural: 'rolebindings', namespace }),
    {
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'tenant-admin' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' },
        subjects: [{ kind: 'ServiceAccount', name: 'default', namespace }],
      },
    },
  );
}
