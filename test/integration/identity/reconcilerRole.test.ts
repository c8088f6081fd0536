import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { reconcileUnderLease } from '../../../lib/lambda/reconcileUnderLease';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import { freshNamespace, kubeClient, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  getLive,
  includeNamespaced,
  yamlOf,
} from '../../support/engine';
import { reconcilerClient } from '../../support/reconcilerClient';

// The reconciler's own identity, as shipped in infra/rbac/reconciler.yaml, holds no right over any
// tenant's objects: a whole GitTrack reconcile (lease, fetch with a credentials Secret, apply,
// prune, status, events) succeeds with it, because every request about the tenant's objects is
// made as the tenant's service account.

const token = 'reconciler-test-token';

let admin: KubeClient;
let reconciler: KubeClient;
let server: GitServer;
let gitCacheRoot: string;
beforeAll(async () => {
  admin = await kubeClient();
  server = await startGitServer({ token });
  gitCacheRoot = mkdtempSync(join(tmpdir(), 'lk-reconciler-role-'));
  reconciler = await reconcilerClient(admin);
});
afterAll(async () => {
  await reconciler?.close();
  await admin?.close();
  await server?.close();
  rmSync(gitCacheRoot, { recursive: true, force: true });
});

describe('the reconciler role of infra/rbac', () => {
  it('reconciles a GitTrack end to end without any right over the tenant namespace', async () => {
    const ns = await freshNamespace(admin, 'reconciler-role');
    await admin.request('POST', resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace: ns }), {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'git' }, stringData: { token } },
    });
    const repo = createRepo(server, uniqueName('reconciler-role'));
    commit(repo, { 'a.yaml': yamlOf(configMap('a')), 'b.yaml': yamlOf(configMap('b')) }, 'two');
    // createGitTrack binds the namespace's `default` service account to `admin`, as onboarding does.
    const track = await createGitTrack(admin, ns, {
      repository: repo.url,
      reference: 'main',
      auth: { type: 'token', secretRef: { name: 'git' } },
    });

    // The reconciler itself may not even read the tenant's ConfigMaps or Secrets.
    for (const plural of ['configmaps', 'secrets']) {
      const refused = await reconciler
        .get(resourcePath({ apiVersion: 'v1', plural, namespace: ns }))
        .catch((e: unknown) => e);
      expect(hasCode(refused, 'KubeApiError') && (refused as { status: number }).status).toBe(403);
    }

    const run = async () =>
      (await reconcileUnderLease(
        { client: reconciler, config: includeNamespaced, gitCacheRoot },
        { track },
        { namespace: 'lightkeeper-system', holder: uniqueName('reconciler'), waitUntil: Date.now() + 30_000 },
      )) as ReconcileSummary;

    const first = await run();
    expect(first.errors).toEqual([]);
    expect(first).toMatchObject({ result: 'Succeeded', counts: { applied: 2 } });
    expect(await getLive(admin, configMaps, 'a', ns)).toBeDefined();

    commit(
      repo,
      { 'a.yaml': yamlOf(configMap('a', { key: 'changed' })), 'b.yaml': null },
      'change a, drop b',
    );
    const second = await run();
    expect(second.errors).toEqual([]);
    expect(second).toMatchObject({ result: 'Succeeded', counts: { applied: 1, pruned: 1 } });
    expect((await getLive(admin, configMaps, 'a', ns))?.data).toEqual({ key: 'changed' });
    expect(await getLive(admin, configMaps, 'b', ns)).toBeUndefined();
  });
});
