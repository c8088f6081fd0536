import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { ignoreReasons } from '../../../lib/ownership/ownershipTable';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, configMaps, createGitTrack, getLive, trackStatus, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

// Manifests a GitTrack may not apply are skipped, and the run says so: Ready keeps True with its
// own reason naming them, and one Warning Event, not one per sweep.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const skippedEvents = async (track: TrackRef) =>
  (
    await client.get<{ items: Array<{ type: string; reason: string; message: string }> }>(
      `/api/v1/namespaces/${track.namespace}/events`,
      { query: { fieldSelector: `involvedObject.name=${track.name}` } },
    )
  ).items.filter((ev) => ev.reason === 'SkippedForSafety');

describe('objects skipped for safety', () => {
  it('keeps Ready True with reason ReconciliationSucceededWithSkips naming them, and warns once', async () => {
    const [own, other] = await Promise.all([
      freshNamespace(client, 'skip-own'),
      freshNamespace(client, 'skip-other'),
    ]);
    const role = uniqueName('lk-skip-role');
    const repo = createRepo(server, uniqueName('skips'));
    const sha = commit(
      repo,
      {
        'mine.yaml': yamlOf(configMap('mine', {}, own)),
        'other.yaml': yamlOf(configMap('elsewhere', {}, other)),
        'role.yaml': yamlOf({
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: { name: role },
          rules: [],
        }),
      },
      'one of mine, two it may not apply',
    );
    const track = await createGitTrack(client, own, { repository: repo.url, reference: 'main' });
    const summary = await e.run(track);
    expect(summary).toMatchObject({ result: 'Succeeded', counts: { applied: 1, ignored: 2 } });
    expect(await getLive(client, configMaps, 'mine', own)).toBeDefined();
    expect(await getLive(client, configMaps, 'elsewhere', other)).toBeUndefined();

    const ready = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'True', reason: 'ReconciliationSucceededWithSkips' });
    expect(ready?.message.split('\n')[0]).toBe(`applied ${sha}; skipped 2 objects this track may not apply:`);
    expect(ready?.message).toContain(
      `ConfigMap/${other}/elsewhere (namespace ${other} is not managed by this GitTrack)`,
    );
    expect(ready?.message).toContain(
      `ClusterRole.rbac.authorization.k8s.io/${role} (${ignoreReasons.clusterScopedForGitTrack})`,
    );

    const events = await skippedEvents(track);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'Warning' });
    expect(events[0]?.message).toMatch(new RegExp(`^${sha}: skipped 2 objects this track may not apply: `));
    expect(events[0]?.message).not.toContain('\n');

    // A sweep that finds the same skips and changes nothing does not say it again.
    const sweep = await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(sweep).toMatchObject({ result: 'Succeeded', counts: { ignored: 2 } });
    expect(await skippedEvents(track)).toHaveLength(1);
  });
});
