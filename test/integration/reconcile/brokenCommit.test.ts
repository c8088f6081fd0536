import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, configMaps, createGitTrack, getLive, trackStatus, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

// A commit that does not parse is broken: nothing of it is applied, as Flux applies nothing of a
// build that fails, and the status says the cluster still runs the previous commit.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const broken = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [unclosed\n';

describe('a broken commit', () => {
  it('is applied not at all, keeps the status on the previous commit, and applies once fixed', async () => {
    const ns = await freshNamespace(client, 'broken');
    const repo = createRepo(server, uniqueName('broken'));
    const good = commit(
      repo,
      { 'app.yaml': yamlOf(configMap('app', { v: '1' })), 'old.yaml': yamlOf(configMap('old')) },
      'good',
    );
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', commit: good });

    const bad = commit(
      repo,
      {
        'app.yaml': yamlOf(configMap('app', { v: '2' })),
        'new.yaml': yamlOf(configMap('new')),
        'old.yaml': null,
        'extra.yaml': broken,
      },
      'one good change, one syntax error',
    );
    const summary = await e.run(track);
    expect(summary).toMatchObject({
      result: 'Failed',
      commit: bad,
      deployed: { extent: 'broken', objects: 0 },
      counts: { applied: 0, pruned: 0 },
      writes: { objects: 0 },
    });
    expect(summary.changes).toEqual([]);
    // Nothing of the commit reached the cluster: not the good change, not the new object, no prune.
    expect((await getLive(client, configMaps, 'app', ns))?.data).toEqual({ v: '1' });
    expect(await getLive(client, configMaps, 'new', ns)).toBeUndefined();
    expect(await getLive(client, configMaps, 'old', ns)).toBeDefined();

    const status = await trackStatus(client, track);
    expect(status).toMatchObject({ lastAppliedCommit: good, lastAttemptedCommit: bad, objectsInSync: 2 });
    const condition = (type: string) => status.conditions.find((c) => c.type === type);
    expect(condition('Ready')).toMatchObject({ status: 'False', reason: 'ParseFailed' });
    expect(condition('Ready')?.message).toMatch(/extra\.yaml:\d+: /);
    expect(condition('Parsed')).toMatchObject({ status: 'False', reason: 'ParseFailed' });
    expect(condition('Pruned')).toMatchObject({ status: 'False', reason: 'PruneSkipped' });
    // No condition claims the broken commit was applied (it was fetched); Applied says what runs.
    const claims = status.conditions.filter((c) => c.status === 'True' && c.message.includes(bad));
    expect(claims.map((c) => c.type)).toEqual(['Fetched']);
    expect(condition('Applied')).toMatchObject({
      status: 'False',
      reason: 'ParseFailed',
      message: `nothing of ${bad} applied: it does not parse; the cluster still runs ${good}`,
    });

    const fixed = commit(repo, { 'extra.yaml': yamlOf(configMap('extra')) }, 'fix');
    expect(await e.run(track)).toMatchObject({
      result: 'Succeeded',
      commit: fixed,
      deployed: { extent: 'full', objects: 3, of: 3 },
      counts: { pruned: 1 },
    });
    expect((await getLive(client, configMaps, 'app', ns))?.data).toEqual({ v: '2' });
    expect(await getLive(client, configMaps, 'new', ns)).toBeDefined();
    expect(await getLive(client, configMaps, 'extra', ns)).toBeDefined();
    expect(await trackStatus(client, track)).toMatchObject({
      lastAppliedCommit: fixed,
      lastAttemptedCommit: fixed,
      objectsInSync: 3,
      conditions: expect.arrayContaining([
        expect.objectContaining({ type: 'Ready', status: 'True' }),
        expect.objectContaining({ type: 'Applied', status: 'True' }),
      ]),
    });
  });
});
