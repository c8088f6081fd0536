import { describe, expect, it } from 'vitest';
import { isKubeApiError } from '../../../lib/errors';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { createClusterGitTrack, createGitTrack, trackStatus, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { deployment, deployments, readDeployment, scale } from './ignoreSupport';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

describe('what an ignore rule reaches', () => {
  it("a ClusterGitTrack's rule naming a namespace ignores the field there and nowhere else", async () => {
    const [a, b] = [await freshNamespace(client, 'ignore-a'), await freshNamespace(client, 'ignore-b')];
    const repo = createRepo(server, uniqueName('ignore-cgt'));
    commit(
      repo,
      { 'web.yaml': yamlOf(deployment('web', 2, {}, a), deployment('web', 2, {}, b)) },
      'web twice',
    );
    const track = await createClusterGitTrack(client, {
      repository: repo.url,
      reference: 'main',
      ignore: [{ target: { kind: 'Deployment', namespace: a }, jsonPointers: ['/spec/replicas'] }],
    });
    expect((await e.run(track)).result).toBe('Succeeded');
    await scale(client, a, 'web', 6);
    await scale(client, b, 'web', 6);
    const swept = await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(swept.changes.find((c) => c.subject === `Deployment.apps/${a}/web`)).toMatchObject({
      action: 'unchanged',
    });
    expect(swept.changes.find((c) => c.subject === `Deployment.apps/${b}/web`)).toMatchObject({
      action: 'configured',
      drifted: true,
    });
    expect((await readDeployment(client, a, 'web')).spec.replicas).toBe(6);
    expect((await readDeployment(client, b, 'web')).spec.replicas).toBe(2);
  });

  it("refuses a GitTrack's rule for another namespace, naming track and rule; that namespace's drift is still corrected", async () => {
    const [mine, theirs] = [
      await freshNamespace(client, 'ignore-mine'),
      await freshNamespace(client, 'ignore-theirs'),
    ];
    const repo = createRepo(server, uniqueName('ignore-gt'));
    commit(repo, { 'web.yaml': yamlOf(deployment('web', 2)) }, 'web');
    const other = await createGitTrack(client, theirs, { repository: repo.url, reference: 'main' });
    expect((await e.run(other)).result).toBe('Succeeded');

    const reaching = await createGitTrack(client, mine, {
      repository: repo.url,
      reference: 'main',
      ignore: [{ target: { namespace: theirs }, jsonPointers: ['/spec/replicas'] }],
    });
    const refused = await e.run(reaching);
    const why = `GitTrack/${mine}/${reaching.name}: spec.ignore[0].target.namespace: ${theirs} is outside this GitTrack's namespace ${mine}`;
    expect(refused).toMatchObject({ result: 'Failed', errors: [why], writes: { objects: 0 } });
    expect((await trackStatus(client, reaching)).conditions.find((c) => c.type === 'Applied')).toMatchObject({
      status: 'False',
      message: why,
    });
    expect(await client.find(resourcePath({ ...deployments, namespace: mine, name: 'web' }))).toBeUndefined();

    await scale(client, theirs, 'web', 7);
    expect((await e.run(other, { mode: 'drift' })).counts.drifted).toBe(1);
    expect((await readDeployment(client, theirs, 'web')).spec.replicas).toBe(2);
  });

  it('refuses malformed pointers: the CRD at admission, the engine for what the CRD lets through', async () => {
    const ns = await freshNamespace(client, 'ignore-bad');
    let admission = '';
    try {
      await client.request('POST', resourcePath({ ...lightkeeperResources.GitTrack, namespace: ns }), {
        body: {
          apiVersion: 'lightkeeper.dev/v1alpha1',
          kind: 'GitTrack',
          metadata: { name: 'bad', namespace: ns },
          spec: {
            repository: 'https://git.example/r.git',
            reference: 'main',
            ignore: [{ jsonPointers: ['spec/replicas'] }],
          },
        },
      });
    } catch (err) {
      if (isKubeApiError(err) && err.status === 422) admission = err.message;
      else throw err;
    }
    expect(admission).toMatch(/spec\.ignore\[0\]\.jsonPointers\[0\]/);

    const repo = createRepo(server, uniqueName('ignore-bad'));
    commit(repo, { 'web.yaml': yamlOf(deployment('web', 2)) }, 'web');
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      ignore: [
        { jsonPointers: ['/spec/replicas'] },
        { target: { kind: 'Deployment' }, jsonPointers: ['/metadata/name'] },
      ],
    });
    const refused = await e.run(track);
    expect(refused).toMatchObject({
      result: 'Failed',
      errors: [
        `GitTrack/${ns}/${track.name}: spec.ignore[1].jsonPointers[0]: /metadata/name names the object itself; it cannot be ignored`,
      ],
      writes: { objects: 0 },
    });
  });
});
