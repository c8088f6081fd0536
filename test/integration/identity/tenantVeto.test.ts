import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { createClusterGitTrack, createGitTrack, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

// Issue 19, item 8: a tenant's manifest cannot veto the platform. The tenant's identity is asked
// before a tracking object exists for its child, so a GitTrack whose role may not create a
// ResourceQuota leaves nothing behind, and the platform's ClusterGitTrack then creates the quota.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const quota = (namespace?: string) => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'compute', ...(namespace ? { namespace } : {}) },
  spec: { hard: { pods: namespace ? '10' : '1000' } },
});

const trackers = async (ns: string) =>
  (
    await client.get<{ items: Array<{ spec: { target: { kind: string } } }> }>(
      resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }),
    )
  ).items;

describe('a GitTrack listing an object its identity may not create', () => {
  it('leaves no tracking object, and the platform then applies that object', async () => {
    const ns = await freshNamespace(client, 'veto');
    const tenantRepo = createRepo(server, uniqueName('tenant'));
    commit(tenantRepo, { 'quota.yaml': yamlOf(quota()) }, 'a quota of our own');
    // `admin` may read ResourceQuotas in its namespace, never create them.
    const tenant = await createGitTrack(client, ns, { repository: tenantRepo.url, reference: 'main' });

    const refused = await e.run(tenant);
    expect(refused.result).toBe('Failed');
    expect(refused.changes).toEqual([
      expect.objectContaining({
        subject: `ResourceQuota/${ns}/compute`,
        action: 'failed',
        message: expect.stringContaining(
          `ServiceAccount ${ns}/default may not patch (apply) ResourceQuota ${ns}/compute; nothing of it was applied or tracked`,
        ),
      }),
    ]);
    expect(await trackers(ns)).toEqual([]);

    const platformRepo = createRepo(server, uniqueName('platform'));
    commit(platformRepo, { 'quota.yaml': yamlOf(quota(ns)) }, 'quota for the tenant');
    const platform = await createClusterGitTrack(client, { repository: platformRepo.url, reference: 'main' });
    const applied = await e.run(platform);
    expect(applied).toMatchObject({ result: 'Succeeded', counts: { applied: 1, conflicts: 0 } });
    const live = await client.get<{ spec: { hard: Record<string, string> } }>(
      `/api/v1/namespaces/${ns}/resourcequotas/compute`,
    );
    expect(live.spec.hard.pods).toBe('10');

    // The tenant's next run still cannot change it, and still leaves no tracking object of its own.
    const again = await e.run(tenant);
    expect(again.changes).toEqual([expect.objectContaining({ action: 'failed' })]);
    expect((await trackers(ns)).map((t) => t.spec.target.kind)).toEqual(['ResourceQuota']);
    expect(await e.run(platform)).toMatchObject({ result: 'Succeeded', counts: { inSync: 1 } });
  });
});
