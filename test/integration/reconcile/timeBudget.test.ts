import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createClusterGitTrack,
  engine,
  getLive,
  patchTrackSpec,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { useEngineHarness } from '../../support/engineHarness';

// A run of any size fits in Lambda: with a time budget it stops at an object boundary, prunes
// nothing, says how far it got, and a continuation of the same commit goes on from there.

let client: KubeClient;
let server: GitServer;
useEngineHarness((h) => ({ client, server } = h));

const objects = 1000;
const stale = ['stale-0', 'stale-1', 'stale-2', 'stale-3', 'stale-4'];

/** `count` ConfigMaps in files of 50 documents, as a repository of that size is usually laid out. */
function manyConfigMaps(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f * 50 < count; f++) {
    const docs = [];
    for (let i = f * 50; i < Math.min(count, (f + 1) * 50); i++)
      docs.push(
        configMap(`cm-${String(i).padStart(4, '0')}`, { index: String(i), payload: 'x'.repeat(200) }),
      );
    files[`apps/part-${f}.yaml`] = yamlOf(...docs);
  }
  return files;
}

const names = async (ns: string) =>
  (
    await client.get<{ items: Array<{ metadata: { name: string } }> }>(`/api/v1/namespaces/${ns}/configmaps`)
  ).items
    .map((i) => i.metadata.name)
    .filter((n) => n.startsWith('cm-') || n.startsWith('stale-'));

describe('time budget', () => {
  it('converges a 1,000-object commit over budgeted runs and their continuations, pruning only in the last', async () => {
    const ns = await freshNamespace(client, 'budget');
    const repo = createRepo(server, uniqueName('budget'));
    const before = commit(repo, { 'stale.yaml': yamlOf(...stale.map((n) => configMap(n))) }, 'stale objects');
    const track = await createClusterGitTrack(client, {
      repository: repo.url,
      reference: 'main',
      defaultNamespace: ns,
    });
    const once = engine(client, { concurrency: 16 });
    expect((await once.run(track)).result).toBe('Succeeded');
    const files = manyConfigMaps(objects);
    const head = commit(repo, { ...files, 'stale.yaml': null }, '1,000 objects, stale ones dropped');

    // Sharding on, with the track just at its threshold (not above it): applied whole, continued as before.
    const shards = { threshold: objects, fanout: 8, pendingMs: 60_000 };
    const budgeted = engine(client, { concurrency: 16, timeBudgetMs: 1_500, shards });
    const runs: ReconcileSummary[] = [];
    try {
      let out = await budgeted.run(track);
      runs.push(out);
      while (out.result === 'Continuing') {
        expect(out.commit).toBe(head);
        expect(out.counts.pruned).toBe(0);
        // Nothing pruned before the run that got through every object.
        const live = await names(ns);
        for (const n of stale) expect(live).toContain(n);
        const status = await trackStatus(client, track);
        const ready = status.conditions.find((c) => c.type === 'Ready');
        expect(ready).toMatchObject({ status: 'False', reason: 'Progressing' });
        expect(ready?.message).toMatch(
          new RegExp(`applied \\d+ of ${objects} objects at ${head}, continuing`),
        );
        expect(status.conditions.find((c) => c.type === 'Pruned')?.reason).toBe('PruneDeferred');
        expect(status.lastAppliedCommit).toBe(before);
        const dryRunsBefore = client.stats.dryRuns;
        out = await budgeted.run(track, { commit: head, continuation: true });
        runs.push(out);
        // The first run validated the whole commit: a continuation sends no dry-run again.
        expect(client.stats.dryRuns).toBe(dryRunsBefore);
      }
    } finally {
      budgeted.dispose();
    }

    // At least one continuation (how many depends on the machine's speed: 2 runs on a quiet fast
    // one, 3 or more on a loaded one; a smaller budget would make a slow machine's chain very long).
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.filter((r) => r.shards !== undefined)).toEqual([]);
    // Every run made progress: how much of the commit runs grows strictly.
    const progress = runs.map((r) => r.deployed?.objects ?? 0);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1] as number);
    const last = runs.at(-1) as ReconcileSummary;
    expect(last).toMatchObject({ result: 'Succeeded', commit: head });
    expect(last.counts.pruned).toBe(stale.length);

    // The final state is one long run's: all objects, stale ones gone, Ready at the commit, and a
    // run without a budget finds nothing left to apply. (Pruned tracking objects may linger until
    // the garbage collector releases them, so that run may count them again.)
    const live = await names(ns);
    expect(live.filter((n) => n.startsWith('cm-'))).toHaveLength(objects);
    for (const n of stale) expect(live).not.toContain(n);
    const status = await trackStatus(client, track);
    expect(status.conditions.find((c) => c.type === 'Ready')).toMatchObject({ status: 'True' });
    expect(status.lastAppliedCommit).toBe(head);
    const again = await once.run(track);
    once.dispose();
    expect(again).toMatchObject({ result: 'Succeeded', commit: head });
    expect(again.counts).toMatchObject({ applied: 0, failed: 0, inSync: objects });
    console.log(
      `budgeted runs: ${runs.map((r) => `${r.deployed?.objects}/${r.deployed?.of} in ${r.durationMs} ms`).join(', ')}`,
    );
  }, 300_000);

  it('a continuation stands down when a later commit was attempted or the track was pinned elsewhere', async () => {
    const ns = await freshNamespace(client, 'budget');
    const repo = createRepo(server, uniqueName('budget'));
    const first = commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '1' })) }, 'first');
    const second = commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '2' })) }, 'second');
    const track = await createClusterGitTrack(client, {
      repository: repo.url,
      reference: 'main',
      defaultNamespace: ns,
    });
    const e = engine(client);
    try {
      expect((await e.run(track)).commit).toBe(second);
      // A continuation of `first`, queued before `second` was applied, must not roll the track back.
      const late = await e.run(track, { commit: first, continuation: true });
      expect(late.result).toBe('Aborted');
      expect(late.errors.at(-1)).toContain(`a later reconcile attempted ${second}`);
      expect((await getLive(client, configMaps, 'a', ns))?.data).toEqual({ v: '2' });
      expect((await trackStatus(client, track)).lastAppliedCommit).toBe(second);

      // Nor one of the head when the track was pinned at another commit meanwhile.
      await patchTrackSpec(client, track, { pin: { commit: first, by: 'test' } });
      const pinned = await e.run(track, { commit: second, continuation: true });
      expect(pinned.result).toBe('Aborted');
      expect(pinned.errors.at(-1)).toContain(`pinned at ${first}`);

      // A continuation never pins: the engine writes no spec.pin for it.
      await patchTrackSpec(client, track, { pin: null });
      const goOn = await e.run(track, { commit: second, continuation: true });
      expect(goOn.result).toBe('Succeeded');
      const spec = await client.get<{ spec: { pin?: unknown } }>(
        `/apis/lightkeeper.dev/v1alpha1/clustergittracks/${track.name}`,
      );
      expect(spec.spec.pin).toBeUndefined();
    } finally {
      e.dispose();
    }
  });
});
