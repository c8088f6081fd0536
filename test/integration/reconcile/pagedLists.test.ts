import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { kubeClientFromFile } from '../../../lib/kube/loadKubeConfig';
import { defaultRequestPolicy } from '../../../lib/kube/requestPolicy';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, kubeconfig, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  engine,
  getLive,
  includeNamespaced,
  yamlOf,
} from '../../support/engine';

// A reconcile reads its tracking objects and children a page at a time (LIGHTKEEPER_LIST_PAGE_SIZE):
// with pages of 2, seven objects span four pages, and every page must count, or a no-op writes
// and a prune misses (or takes) objects.

let client: KubeClient;
let server: GitServer;
let e: ReturnType<typeof engine>;

beforeAll(async () => {
  client = await kubeClientFromFile(kubeconfig(), { policy: { ...defaultRequestPolicy, listPageSize: 2 } });
  server = await startGitServer();
  // Every run checks the whole track (LISTs), never only a push's files (GETs).
  e = engine(client, { config: { ...includeNamespaced, incrementalMaxFiles: 0 } });
});
afterAll(async () => {
  e.dispose();
  await client.close();
  await server.close();
});

const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

describe('lists read in pages', () => {
  it('a no-op writes nothing, and a prune removes exactly what left git and keeps the rest', async () => {
    const ns = await freshNamespace(client, 'paged');
    const repo = createRepo(server, uniqueName('paged'));
    commit(repo, Object.fromEntries(names.map((n) => [`${n}.yaml`, yamlOf(configMap(n))])), 'seven');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).counts.applied).toBe(7);
    const uidOf = async (n: string) => (await getLive(client, configMaps, n, ns))?.metadata.uid;
    const uids = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await uidOf(n)])));

    const noop = await e.run(track);
    expect(noop).toMatchObject({ result: 'Succeeded', counts: { inSync: 7 } });
    expect(noop.writes.objects).toBe(0);

    const gone = ['b', 'e', 'g'];
    commit(repo, Object.fromEntries(gone.map((n) => [`${n}.yaml`, null])), 'drop three');
    const pruned = await e.run(track);
    expect(pruned).toMatchObject({ result: 'Succeeded', counts: { pruned: 3, inSync: 4 } });
    expect(
      pruned.changes
        .filter((c) => c.action === 'deleted')
        .map((c) => c.subject)
        .sort(),
    ).toEqual(gone.map((n) => `ConfigMap/${ns}/${n}`));
    for (const n of names.filter((n) => !gone.includes(n))) expect(await uidOf(n)).toBe(uids[n]);
  });
});
