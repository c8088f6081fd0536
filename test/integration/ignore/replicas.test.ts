import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { serverSideApply } from '../../../lib/kube/serverSideApply';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { ignoreFieldsAnnotation } from '../../../lib/manifests/metadataKeys';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { createGitTrack, patchTrackSpec, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { deployment, deployments, readDeployment, replicasOwners, scale } from './ignoreSupport';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const replicasRule = (name: string) => ({
  target: { group: 'apps', kind: 'Deployment', name },
  jsonPointers: ['/spec/replicas'],
});

const actionOf = (summary: { changes: Array<{ subject: string; action: string }> }, name: string) =>
  summary.changes.find((c) => c.subject.endsWith(`/${name}`))?.action;

describe('spec.ignore: spec.replicas left to a second field manager', () => {
  it('with the rule the writer keeps the value and nothing drifts; without it the drift is corrected', async () => {
    const ns = await freshNamespace(client, 'ignore-hpa');
    const repo = createRepo(server, uniqueName('ignore-hpa'));
    commit(repo, { 'apps.yaml': yamlOf(deployment('web', 2), deployment('api', 2)) }, 'two deployments');
    // The rule names web only: api, same kind and namespace, is not touched by it.
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      ignore: [replicasRule('web')],
    });
    const first = await e.run(track);
    expect(first.result).toBe('Succeeded');
    // On create the manifest's value is applied, and lightkeeper owns it until someone else writes it.
    expect((await readDeployment(client, ns, 'web')).spec.replicas).toBe(2);
    expect(await replicasOwners(client, ns, 'web')).toEqual(['lightkeeper']);

    await scale(client, ns, 'web', 5);
    await scale(client, ns, 'api', 5);
    expect(await replicasOwners(client, ns, 'web')).toEqual(['hpa-like/scale']);

    const swept = await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(swept.result).toBe('Succeeded');
    expect(swept.counts).toMatchObject({ drifted: 1, applied: 1 });
    expect(actionOf(swept, 'web')).toBe('unchanged');
    expect(swept.changes.find((c) => c.subject.endsWith('/api'))).toMatchObject({
      action: 'configured',
      drifted: true,
    });
    expect((await readDeployment(client, ns, 'web')).spec.replicas).toBe(5);
    expect((await readDeployment(client, ns, 'api')).spec.replicas).toBe(2);

    // The no-op stays a no-op: no object written.
    const again = await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(again).toMatchObject({ counts: { drifted: 0, applied: 0, inSync: 2 }, writes: { objects: 0 } });

    // A new commit re-applies web without replicas: the writer's value stays, git's new value is not applied.
    commit(
      repo,
      { 'apps.yaml': yamlOf(deployment('web', 4, { annotations: { note: 'v2' } }), deployment('api', 2)) },
      'web v2',
    );
    const v2 = await e.run(track);
    expect(actionOf(v2, 'web')).toBe('configured');
    const web = await readDeployment(client, ns, 'web');
    expect(web.spec.replicas).toBe(5);
    expect(await replicasOwners(client, ns, 'web')).toEqual(['hpa-like/scale']);

    // Without the rule the drift is corrected: git's value, owned by lightkeeper again.
    await patchTrackSpec(client, track, { ignore: null });
    const without = await e.run(track);
    expect(actionOf(without, 'web')).toBe('configured');
    expect((await readDeployment(client, ns, 'web')).spec.replicas).toBe(4);
    expect(await replicasOwners(client, ns, 'web')).toEqual(['lightkeeper']);
    await scale(client, ns, 'web', 9);
    const corrected = await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(corrected.changes.find((c) => c.subject.endsWith('/web'))).toMatchObject({ drifted: true });
    expect((await readDeployment(client, ns, 'web')).spec.replicas).toBe(4);
  });

  it('never resets a field it stops applying while it still owns it alone (the annotation form)', async () => {
    const ns = await freshNamespace(client, 'ignore-keep');
    const repo = createRepo(server, uniqueName('ignore-keep'));
    commit(repo, { 'web.yaml': yamlOf(deployment('web', 3)) }, 'web at 3');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).result).toBe('Succeeded');
    expect(await replicasOwners(client, ns, 'web')).toEqual(['lightkeeper']);

    // The danger, shown on the API server itself: lightkeeper's apply without replicas, while no
    // other manager owns them, makes the server drop them back to the default (dry run: no effect).
    const annotated = deployment(
      'web',
      6,
      { annotations: { [ignoreFieldsAnnotation]: '/spec/replicas' } },
      ns,
    );
    const { spec: _spec, ...rest } = annotated;
    const { replicas: _replicas, ...specWithout } = annotated.spec;
    const naive = await serverSideApply<{ spec: { replicas: number } }>(
      client,
      { ...deployments, namespace: ns, name: 'web' },
      { ...rest, spec: specWithout },
      { dryRun: true },
    );
    expect(naive.object.spec.replicas).toBe(1);

    // The annotation arrives with git's replicas changed to 6: neither 1 nor 6, the live 3 stays.
    commit(repo, { 'web.yaml': yamlOf(annotated) }, 'ignore replicas');
    const ignored = await e.run(track);
    expect(ignored.result).toBe('Succeeded');
    expect(actionOf(ignored, 'web')).toBe('configured');
    const kept = await readDeployment(client, ns, 'web');
    expect(kept.spec.replicas).toBe(3);
    expect(kept.metadata.annotations?.[ignoreFieldsAnnotation]).toBe('/spec/replicas');
    // Still lightkeeper's alone (applied at its live value), until another manager writes it.
    expect(await replicasOwners(client, ns, 'web')).toEqual(['lightkeeper']);

    await scale(client, ns, 'web', 8);
    const swept = await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(swept).toMatchObject({ counts: { drifted: 0, applied: 0 }, writes: { objects: 0 } });
    expect((await readDeployment(client, ns, 'web')).spec.replicas).toBe(8);

    // Now the writer owns it, the next apply leaves it out for good, and the server keeps the value.
    commit(
      repo,
      {
        'web.yaml': yamlOf({
          ...annotated,
          metadata: { ...annotated.metadata, labels: { app: 'web', tier: 'front' } },
        }),
      },
      'label',
    );
    expect(actionOf(await e.run(track), 'web')).toBe('configured');
    expect((await readDeployment(client, ns, 'web')).spec.replicas).toBe(8);
    expect(await replicasOwners(client, ns, 'web')).toEqual(['hpa-like/scale']);
  });
});
