import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { pruneAnnotation } from '../../../lib/manifests/metadataKeys';
import { eventually, freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  getLive,
  patchTrackSpec,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

// Nothing is lost: pruning removes exactly what left git, and never runs after an error.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const names = ['a', 'b', 'c'];
async function threeConfigMaps(subPath?: string) {
  const ns = await freshNamespace(client, 'prune');
  const repo = createRepo(server, uniqueName('prune'));
  const dir = subPath ? `${subPath}/` : '';
  commit(repo, Object.fromEntries(names.map((n) => [`${dir}${n}.yaml`, yamlOf(configMap(n))])), 'three');
  const track = await createGitTrack(client, ns, {
    repository: repo.url,
    reference: 'main',
    ...(subPath ? { subPath } : {}),
  });
  expect((await e.run(track)).counts.applied).toBe(3);
  const uids = await Promise.all(
    names.map(async (n) => (await getLive(client, configMaps, n, ns))?.metadata.uid),
  );
  return { ns, repo, track, uids };
}

const liveUids = (ns: string) =>
  Promise.all(names.map(async (n) => (await getLive(client, configMaps, n, ns))?.metadata.uid));
/**
 * Names of the children that tracking objects in `ns` point at. A pruned tracking object is deleted
 * with orphan propagation: it may linger, being deleted, until the collector has released it.
 */
const trackedNames = async (ns: string) =>
  (
    await client.get<{
      items: Array<{ metadata: { deletionTimestamp?: string }; spec: { target: { name: string } } }>;
    }>(resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }))
  ).items
    .filter((t) => !t.metadata.deletionTimestamp)
    .map((t) => t.spec.target.name)
    .sort();

/** After a failed reconcile, the garbage collector must not be able to take anything either. */
async function expectNothingLost(ns: string, uids: Array<string | undefined>) {
  expect(await liveUids(ns)).toEqual(uids);
  expect(await trackedNames(ns)).toEqual(expect.arrayContaining(names));
}

describe('prune', () => {
  it('removes exactly the objects whose files a commit removed', async () => {
    const { ns, repo, track, uids } = await threeConfigMaps();
    commit(repo, { 'b.yaml': null }, 'drop b');
    const summary = await e.run(track);
    expect(summary).toMatchObject({ result: 'Succeeded', counts: { pruned: 1, inSync: 2 } });
    expect(summary.changes.filter((c) => c.action === 'deleted').map((c) => c.subject)).toEqual([
      `ConfigMap/${ns}/b`,
    ]);
    await eventually('the collector removes b', async () => (await liveUids(ns))[1] === undefined);
    expect(await liveUids(ns)).toEqual([uids[0], undefined, uids[2]]);
    expect(await trackedNames(ns)).toEqual(['a', 'c']);
  });

  it('prunes nothing after broken YAML, and applies nothing of that commit', async () => {
    const { ns, repo, track, uids } = await threeConfigMaps();
    commit(
      repo,
      {
        'c.yaml': null,
        'broken.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [unclosed\n',
        'd.yaml': yamlOf(configMap('d')),
      },
      'broken',
    );
    const summary = await e.run(track);
    expect(summary.result).toBe('Failed');
    expect(summary.errors.join('\n')).toMatch(/broken\.yaml:\d+/);
    expect(summary.counts.pruned).toBe(0);
    expect(await getLive(client, configMaps, 'd', ns)).toBeUndefined();
    await expectNothingLost(ns, uids);
    const status = await trackStatus(client, track);
    expect(status.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'Parsed', status: 'False', reason: 'ParseFailed' }),
        expect.objectContaining({ type: 'Pruned', status: 'False', reason: 'PruneSkipped' }),
        expect.objectContaining({ type: 'Ready', status: 'False' }),
      ]),
    );
  });

  it('prunes nothing when the subPath is missing from the commit', async () => {
    const { ns, repo, track, uids } = await threeConfigMaps('apps');
    commit(repo, Object.fromEntries(names.map((n) => [`apps/${n}.yaml`, null])), 'remove the folder');
    const summary = await e.run(track);
    expect(summary.result).toBe('Failed');
    expect(summary.errors.join()).toMatch(/subPath apps does not exist/);
    await expectNothingLost(ns, uids);
    expect((await trackStatus(client, track)).conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'Fetched', status: 'False', reason: 'FetchFailed' }),
      ]),
    );
  });

  it('refuses to prune everything for an empty tree unless allowEmpty is set', async () => {
    const { ns, repo, track, uids } = await threeConfigMaps();
    commit(repo, Object.fromEntries(names.map((n) => [`${n}.yaml`, null])), 'empty');
    const refused = await e.run(track);
    expect(refused.result).toBe('Failed');
    expect(refused.errors.join()).toMatch(/refusing to prune all 3 tracked objects/);
    await expectNothingLost(ns, uids);

    await patchTrackSpec(client, track, { allowEmpty: true });
    const allowed = await e.run(track);
    expect(allowed).toMatchObject({ result: 'Succeeded', counts: { pruned: 3 } });
    await eventually('the collector removes all three', async () =>
      (await liveUids(ns)).every((u) => u === undefined),
    );
  });

  it('prunes nothing after an apply error', async () => {
    const { ns, repo, track, uids } = await threeConfigMaps();
    // The API server refuses it (an invalid label value): a failure, not an ownership conflict.
    const invalid = { ...configMap('invalid'), metadata: { name: 'invalid', labels: { app: 'not valid!' } } };
    commit(repo, { 'c.yaml': null, 'invalid.yaml': yamlOf(invalid) }, 'invalid');
    const summary = await e.run(track);
    expect(summary.result).toBe('Failed');
    expect(summary.changes.find((c) => c.action === 'failed')?.message).toMatch(
      /invalid\.yaml:1: ConfigMap\/.*\/invalid: .*not valid!/,
    );
    expect(await getLive(client, configMaps, 'invalid', ns)).toBeUndefined();
    await expectNothingLost(ns, uids);
  });

  it('honours spec.prune: false', async () => {
    const { ns, repo, track, uids } = await threeConfigMaps();
    await patchTrackSpec(client, track, { prune: false });
    commit(repo, { 'a.yaml': null }, 'drop a');
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', counts: { pruned: 0 } });
    await expectNothingLost(ns, uids);
  });

  it('orphans a child annotated prune: disabled instead of deleting it', async () => {
    const ns = await freshNamespace(client, 'orphan');
    const repo = createRepo(server, uniqueName('orphan'));
    const keep = {
      ...configMap('keep'),
      metadata: { name: 'keep', annotations: { [pruneAnnotation]: 'disabled' } },
    };
    commit(repo, { 'keep.yaml': yamlOf(keep), 'other.yaml': yamlOf(configMap('other')) }, 'two');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    await e.run(track);
    const before = await getLive(client, configMaps, 'keep', ns);
    commit(repo, { 'keep.yaml': null }, 'drop keep');
    const summary = await e.run(track);
    expect(summary.changes.find((c) => c.action === 'orphaned')?.subject).toBe(`ConfigMap/${ns}/keep`);
    expect(await trackedNames(ns)).toEqual(['other']);
    // Give the collector every chance to take it; it must not.
    await e.run(track);
    const after = await getLive(client, configMaps, 'keep', ns);
    expect(after?.metadata.uid).toBe(before?.metadata.uid);
    expect(after?.metadata.ownerReferences ?? []).toEqual([]);
  });
});
