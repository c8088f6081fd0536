import { describe, expect, it } from 'vitest';
import { ignoringApply } from '../../../lib/apply/ignoringApply';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { serverSideApply } from '../../../lib/kube/serverSideApply';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { type KubeObject, refOf } from '../../../lib/manifests';
import type { PlannedObject } from '../../../lib/plan/plannedObject';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { createGitTrack, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { deployment, deployments, readDeployment, replicasOwners, scale } from './ignoreSupport';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

describe('keeping a live value', () => {
  it('never overwrites a write that lands between reading the live value and applying it', async () => {
    const ns = await freshNamespace(client, 'ignore-race');
    const repo = createRepo(server, uniqueName('ignore-race'));
    commit(repo, { 'web.yaml': yamlOf(deployment('web', 3)) }, 'web at 3');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).result).toBe('Succeeded');
    expect(await replicasOwners(client, ns, 'web')).toEqual(['lightkeeper']);

    const labels = (await readDeployment(client, ns, 'web')).metadata.labels;
    const object = deployment('web', 3, { labels }, ns) as unknown as KubeObject;
    const planned = {
      subject: `Deployment.apps/${ns}/web`,
      manifest: { object, ref: refOf(object), source: { path: 'web.yaml', line: 1 } },
      ignore: [['spec', 'replicas']],
    } as unknown as PlannedObject;
    const target = { ...deployments, namespace: ns, name: 'web' };
    const sent: Array<number | undefined> = [];
    const apply = ignoringApply(client, resourcePath(target), planned, undefined, async (q) => {
      const spec = q.manifest.object.spec as { replicas?: number };
      sent.push(spec.replicas);
      // The HPA scales right after lightkeeper read replicas 3 as the value to keep.
      if (sent.length === 1) await scale(client, ns, 'web', 8);
      return serverSideApply(client, target, q.manifest.object);
    });
    await apply();
    // The first attempt carried the stale 3 and the resourceVersion it was read at: refused. The
    // second found the HPA owning replicas, left them out, and the server kept 8.
    expect(sent).toEqual([3, undefined]);
    expect((await readDeployment(client, ns, 'web')).spec.replicas).toBe(8);
    expect(await replicasOwners(client, ns, 'web')).toEqual(['hpa-like/scale']);
  });
});
