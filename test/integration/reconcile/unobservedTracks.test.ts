import { describe, expect, it } from 'vitest';
import { startSweep } from '../../../lib/lambda/startSweep';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { ReconcileEvent } from '../../../lib/reconcile/reconcileEvent';
import { listTracks } from '../../../lib/webhook/listTracks';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, createGitTrack, patchTrackSpec, trackStatus, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

// The every-minute check reconciles exactly the tracks whose spec no reconcile has seen yet.

let h: EngineHarness;
useEngineHarness((harness) => {
  h = harness;
});

describe('the unobserved-tracks sweep', () => {
  it('picks a new track, then a changed one, and nothing once each is observed', async () => {
    const { client, server, e } = h;
    const ns = await freshNamespace(client, 'unobserved');
    const repo = createRepo(server, uniqueName('unobserved'));
    commit(repo, { 'a/cm.yaml': yamlOf(configMap('a')), 'b/cm.yaml': yamlOf(configMap('b')) }, 'two');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main', subPath: 'a' });
    const config = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'Disabled', namespace: ns } as const;

    const sweep = async () => {
      const started: ReconcileEvent[] = [];
      await startSweep(
        await listTracks(client, config),
        async (event) => {
          started.push(event);
          await e.run(event.track, event);
        },
        { scope: 'unobserved' },
      );
      return started.map((s) => `${s.track.name} ${s.mode}`);
    };

    expect(await sweep()).toEqual([`${track.name} apply`]);
    expect((await trackStatus(client, track)).objectsApplied).toBe(1);
    expect(await sweep()).toEqual([]);

    await patchTrackSpec(client, track, { subPath: 'b' });
    expect(await sweep()).toEqual([`${track.name} apply`]);
    expect(await sweep()).toEqual([]);
  });
});
