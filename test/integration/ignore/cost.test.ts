import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { createGitTrack, patchTrackSpec, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { deployment, readDeployment, replicasOwners, scale, settled } from './ignoreSupport';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const count = 20;
const names = Array.from({ length: count }, (_, i) => `web-${i}`);
const rule = { target: { group: 'apps', kind: 'Deployment' }, jsonPointers: ['/spec/replicas'] };

async function requests(track: TrackRef, mode?: 'drift') {
  const before = { ...client.stats };
  const started = performance.now();
  const summary = await e.run(track, mode ? { mode } : {});
  return {
    summary,
    reads: client.stats.reads - before.reads,
    writes: client.stats.writes - before.writes,
    ms: Math.round(performance.now() - started),
  };
}

describe('what ignore rules cost', () => {
  it('a no-op sweep reads and writes exactly as much with rules as without; adding a rule reads each object once', async () => {
    const repo = createRepo(server, uniqueName('ignore-cost'));
    commit(repo, { 'apps.yaml': yamlOf(...names.map((n) => deployment(n, 2))) }, `${count} deployments`);
    const ruled = await freshNamespace(client, 'ignore-cost');
    const plain = await freshNamespace(client, 'ignore-cost');
    const withRule = await createGitTrack(client, ruled, { repository: repo.url, reference: 'main' });
    const without = await createGitTrack(client, plain, { repository: repo.url, reference: 'main' });
    expect((await e.run(withRule)).result).toBe('Succeeded');
    expect((await e.run(without)).result).toBe('Succeeded');

    await settled(client, ruled, names);
    await settled(client, plain, names);

    // The rule arrives while lightkeeper still owns every replicas alone: each object is read once
    // (its live value is kept) and applied once.
    await patchTrackSpec(client, withRule, { ignore: [rule] });
    const adding = await requests(withRule);
    expect(adding.summary.counts).toMatchObject({ applied: count, failed: 0 });
    const noRuleApply = await requests(without);
    expect(noRuleApply.summary.counts.applied).toBe(0);
    // + 1: the spec changed (a new generation), so the run, Ready anew, lists the tracks that
    // depend on it (lib/depends/listDependents.ts) once. + 1: health's LIST of Deployments went out
    // with the apply (lib/reconcile/earlyReads.ts), and the run wrote Deployments, so health reads
    // them again after it; the no-op takes that early LIST instead of a later one.
    expect(adding.reads).toBe(noRuleApply.reads + count + 2);
    for (const n of names) expect((await readDeployment(client, ruled, n)).spec.replicas).toBe(2);

    for (const n of names) await scale(client, ruled, n, 4);
    await settled(client, ruled, names);
    await settled(client, plain, names);
    const ruledSweep = await requests(withRule, 'drift');
    const plainSweep = await requests(without, 'drift');
    expect(ruledSweep.summary.counts).toMatchObject({ inSync: count, drifted: 0 });
    expect(plainSweep.summary.counts).toMatchObject({ inSync: count, drifted: 0 });
    expect(ruledSweep.reads).toBe(plainSweep.reads);
    // Healthy conditions follow the pods the scale asked for (ruled only): observations, apart.
    const apart = (r: typeof ruledSweep) => r.writes - r.summary.writes.health;
    expect(apart(ruledSweep)).toBe(apart(plainSweep));
    expect(ruledSweep.summary.writes.objects).toBe(0);
    expect(await replicasOwners(client, ruled, 'web-0')).toEqual(['hpa-like/scale']);
    console.log(
      `[ignore cost] ${count} Deployments: adding the rule ${adding.reads} reads ${adding.writes} writes ${adding.ms} ms; ` +
        `no-op sweep with rule ${ruledSweep.reads} reads ${ruledSweep.writes} writes ${ruledSweep.ms} ms, ` +
        `without ${plainSweep.reads} reads ${plainSweep.writes} writes ${plainSweep.ms} ms`,
    );
  });
});
