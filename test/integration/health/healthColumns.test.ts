import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, createGitTrack, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
interface Table {
  columnDefinitions: Array<{ name: string }>;
  rows: Array<{ cells: unknown[] }>;
}
const column = (t: Table, name: string) =>
  t.rows.map((r) => r.cells[t.columnDefinitions.findIndex((c) => c.name === name)]);

describe('health in the CRDs', () => {
  it('refuses a healthTimeout that is not a duration', async () => {
    const ns = await freshNamespace(client, 'health-crd');
    await expect(
      createGitTrack(client, ns, {
        repository: 'https://git.example/x',
        reference: 'main',
        healthTimeout: 'two minutes',
      }),
    ).rejects.toThrow(/spec\.healthTimeout/);
  });

  it('shows Healthy as a printer column of tracks and tracking objects', async () => {
    const ns = await freshNamespace(client, 'health-crd');
    const repo = createRepo(server, uniqueName('health-crd'));
    commit(repo, { 'a.yaml': yamlOf(configMap('a')) }, 'first');
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      healthTimeout: '1m',
    });
    await e.run(track);
    const tracks = await client.get<Table>(
      resourcePath({ ...lightkeeperResources.GitTrack, namespace: ns }),
      {
        accept: table,
      },
    );
    expect(column(tracks, 'Healthy')).toEqual(['True']);
    const trackers = await client.get<Table>(
      resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }),
      {
        accept: table,
      },
    );
    expect(column(trackers, 'Healthy')).toEqual(['True']);
    expect(column(trackers, 'InSync')).toEqual(['True']);
  });
});
