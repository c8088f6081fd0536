import { describe, expect, it } from 'vitest';
import { diffTrack } from '../../../lib/diff/diffTrack';
import { formatDiffPlan } from '../../../lib/diff/formatDiffPlan';
import { lastAppliedAnnotation } from '../../../lib/diff/maskSecret';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  includeNamespaced,
  patchTrackSpec,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

describe('diffTrack', () => {
  it('names the prunes the guards would refuse: prune disabled, and an empty commit without allowEmpty', async () => {
    const ns = await freshNamespace(client, 'diff-prune');
    const repo = createRepo(server, uniqueName('diff-prune'));
    commit(repo, { 'a.yaml': yamlOf(configMap('a')), 'b.yaml': yamlOf(configMap('b')) }, 'two');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).result).toBe('Succeeded');

    const oneLeft = commit(repo, { 'b.yaml': null }, 'one');
    const pruning = await diffTrack(client, includeNamespaced, { track, commit: oneLeft });
    expect(pruning.pruned).toEqual([{ subject: `ConfigMap/${ns}/b` }]);

    await patchTrackSpec(client, track, { prune: false });
    const disabled = await diffTrack(client, includeNamespaced, { track, commit: oneLeft });
    expect(disabled.pruned).toEqual([{ subject: `ConfigMap/${ns}/b`, refused: 'spec.prune is false' }]);

    await patchTrackSpec(client, track, { prune: true });
    const empty = commit(repo, { 'a.yaml': null, 'README.md': 'nothing here' }, 'empty');
    const refused = await diffTrack(client, includeNamespaced, { track, commit: empty });
    expect(refused.pruned.map((p) => p.refused)).toEqual([
      'the commit has no manifests for this track (set spec.allowEmpty to allow)',
      'the commit has no manifests for this track (set spec.allowEmpty to allow)',
    ]);
  });

  it('reports an object something else controls as a conflict, and ignored manifests with their reasons', async () => {
    const ns = await freshNamespace(client, 'diff-conflict');
    const boss = await client.request<{ metadata: { uid: string } }>(
      'POST',
      resourcePath({ ...configMaps, namespace: ns }),
      { body: configMap('boss') },
    );
    await client.request('POST', resourcePath({ ...configMaps, namespace: ns }), {
      body: {
        ...configMap('taken'),
        metadata: {
          name: 'taken',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'boss', uid: boss.metadata.uid, controller: true },
          ],
        },
      },
    });
    const repo = createRepo(server, uniqueName('diff-conflict'));
    const head = commit(
      repo,
      {
        'taken.yaml': yamlOf(configMap('taken', { key: 'mine' })),
        'elsewhere.yaml': yamlOf(configMap('x', {}, 'kube-system')),
      },
      'one',
    );
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const plan = await diffTrack(client, includeNamespaced, { track, commit: head });
    expect(plan.conflicts).toEqual([
      {
        subject: `ConfigMap/${ns}/taken`,
        message: `ConfigMap/${ns}/taken is controlled by ConfigMap boss; not taking it over`,
      },
    ]);
    expect(plan.ignored).toEqual([
      {
        path: 'elsewhere.yaml',
        object: 'ConfigMap/kube-system/x',
        reason: expect.stringContaining('kube-system'),
      },
    ]);
    expect(plan).toMatchObject({ changed: [], created: [], errors: [] });
  });

  it('masks every copy of a Secret first applied with client-side kubectl apply, in text and JSON', async () => {
    const ns = await freshNamespace(client, 'diff-secret');
    const secret = (password: string, labels: Record<string, string> = {}) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', namespace: ns, labels },
      stringData: { password },
    });
    // As `kubectl apply` (client-side) creates it: the applied object recorded in an annotation.
    const applied = secret('hunter2-old');
    await client.request('POST', resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace: ns }), {
      body: {
        ...applied,
        metadata: { ...applied.metadata, annotations: { [lastAppliedAnnotation]: JSON.stringify(applied) } },
      },
    });
    const repo = createRepo(server, uniqueName('diff-secret'));
    const head = commit(repo, { 'db.yaml': yamlOf(secret('hunter2-new', { team: 'a' })) }, 'rotate');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const plan = await diffTrack(client, includeNamespaced, { track, commit: head });
    expect(plan.changed.map((c) => c.subject)).toEqual([`Secret/${ns}/db`]);
    const text = formatDiffPlan(plan);
    expect(text).toContain(lastAppliedAnnotation);
    const leaks = /hunter2|aHVudGVyMi/;
    expect(text).not.toMatch(leaks);
    expect(JSON.stringify(plan, null, 2)).not.toMatch(leaks);
  });
});
