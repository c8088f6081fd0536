import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, configMaps, createGitTrack, getLive, trackStatus, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { createRole, grant } from '../../support/tenancy';

// A type the track's identity may not read is refused before anything is written, with the real
// reason: a commit applies whole, or nothing the API server would refuse.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const deployment = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name, image: 'registry.example/web:1' }] },
    },
  },
});

describe('a type the tenant may not manage', () => {
  it('fails the objects of that type, naming its resource, and writes nothing of the commit', async () => {
    const ns = await freshNamespace(client, 'no-deploy');
    // May manage ConfigMaps, not Deployments.
    await createRole(client, ns, 'configmaps-only', [
      {
        apiGroups: [''],
        resources: ['configmaps'],
        verbs: ['get', 'list', 'watch', 'create', 'patch', 'update', 'delete'],
      },
    ]);
    await grant(client, ns, { role: 'configmaps-only' });
    const repo = createRepo(server, uniqueName('no-deploy'));
    const sha = commit(
      repo,
      {
        'config.yaml': yamlOf(configMap('one'), configMap('two')),
        'web.yaml': yamlOf(deployment('web')),
      },
      'config and a deployment',
    );
    const track = await createGitTrack(
      client,
      ns,
      { repository: repo.url, reference: 'main' },
      { access: false },
    );

    const summary = await e.run(track);
    expect(summary).toMatchObject({
      result: 'Failed',
      deployed: { extent: 'none', objects: 0, of: 3 },
      counts: { applied: 0, failed: 1, pruned: 0 },
    });
    const failed = summary.changes.filter((c) => c.action === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.subject).toBe(`Deployment.apps/${ns}/web`);
    expect(failed[0]?.message).toMatch(
      new RegExp(
        `^Deployment\\.apps/${ns}/web: .*deployments.*forbidden.*system:serviceaccount:${ns}:default`,
        's',
      ),
    );
    // The run's error is the one line that names the fix (lib/identity/forbiddenFix).
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0]).toMatch(
      new RegExp(
        `^GitTrack ${ns}/${track.name} acts as ServiceAccount ${ns}/default, which may not \\w+ deployments\\.apps in ${ns}: grant it, e\\.g\\. kubectl create rolebinding`,
      ),
    );
    expect(await getLive(client, configMaps, 'one', ns)).toBeUndefined();
    expect(await getLive(client, configMaps, 'two', ns)).toBeUndefined();

    const status = await trackStatus(client, track);
    expect(status).toMatchObject({ lastAttemptedCommit: sha, objectsFailed: 1 });
    expect(status.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'Applied', status: 'False', reason: 'ValidationFailed' }),
        expect.objectContaining({ type: 'Pruned', status: 'False', reason: 'PruneSkipped' }),
      ]),
    );
  });
});
