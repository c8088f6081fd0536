import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { createRepo, commit as gitCommit, type TestRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { ReconcileRequest } from '../../../lib/reconcile/types';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  getLive,
  patchTrackSpec,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { seeRequests } from '../../support/seeRequests';

const commit = (repo: TestRepo, files: Record<string, string | null>) => gitCommit(repo, files, 'a push');

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

/** Every request any client sends while `run` runs (children go through the track's impersonating client). */
async function recorded(track: TrackRef, request: Partial<ReconcileRequest> = {}) {
  const requests: string[] = [];
  const summary = await seeRequests(
    (method, path, options) => {
      const selector = (options?.query as { labelSelector?: string } | undefined)?.labelSelector;
      requests.push(`${method} ${path}${selector ? ` ?${selector}` : ''}`);
    },
    () => e.run(track, { reason: 'push', ...request }),
  );
  return { summary, requests };
}

const trackerList = (r: string) => /^GET \S*\/gittrackobjects( |$)/.test(r);
const childList = (r: string) => /^GET \S*\/configmaps( |$)/.test(r);
const writes = (requests: string[]) =>
  requests.filter((r) => !r.startsWith('GET ') && !r.includes('/events'));
const cm = (name: string, value = 'v1') => configMap(name, { key: value });
const exists = async (ns: string, name: string) =>
  (await getLive(client, configMaps, name, ns)) !== undefined;

async function appliedTrack(prefix: string) {
  const repo = createRepo(server, uniqueName(prefix));
  commit(repo, {
    'apps/a.yaml': yamlOf(cm('cm-a1'), cm('cm-a2')),
    'apps/b.yaml': yamlOf(cm('cm-b1'), cm('cm-b2')),
    'apps/c.yaml': yamlOf(cm('cm-c1')),
    'apps/d.yaml': yamlOf(cm('cm-d1')),
    'README.md': 'not a manifest',
  });
  const ns = await freshNamespace(client, prefix);
  const track = await createGitTrack(client, ns, {
    repository: repo.url,
    reference: 'main',
    subPath: 'apps',
  });
  expect((await e.run(track)).result).toBe('Succeeded');
  expect((await trackStatus(client, track)) as { lastAppliedGeneration?: number }).toMatchObject({
    lastAppliedGeneration: 1,
    objectsDiscovered: 6,
  });
  return { repo, ns, track };
}

describe('an incremental run: a push costs what it changed', () => {
  it('applies only a changed file, prunes only a deleted one, keeps a moved object; the sweep after it writes nothing', async () => {
    const { repo, ns, track } = await appliedTrack('incr');

    // One file changed: only its objects are read and written; nothing is listed.
    const c1 = commit(repo, { 'apps/a.yaml': yamlOf(cm('cm-a1', 'v2'), cm('cm-a2')) });
    const one = await recorded(track);
    expect(one.summary.result).toBe('Succeeded');
    expect(one.summary.counts).toMatchObject({ applied: 1, pruned: 0, discovered: 6, inSync: 6 });
    expect(one.requests.filter(trackerList)).toEqual([]);
    expect(one.requests.filter(childList)).toEqual([]);
    // The health of the changed file's objects, read by GET, is the summary's (the push's commit status).
    expect(one.summary.health).toMatchObject({ healthy: 2, of: 2 });
    const written = writes(one.requests).filter((r) => !/\/gittracks\//.test(r));
    expect(written.length).toBeGreaterThan(0);
    for (const w of written) expect(w).not.toMatch(/cm-(a2|b1|b2|c1|d1)/);
    for (const r of one.requests) expect(r).not.toMatch(/cm-(b1|b2|c1|d1)/);
    const status = await trackStatus(client, track);
    expect(status).toMatchObject({ lastAppliedCommit: c1, objectsDiscovered: 6 });
    expect((status as { objectsPlanned?: number }).objectsPlanned).toBe(6);
    const applied = status.conditions.find((c) => c.type === 'Applied');
    expect(applied?.message).toMatch(
      /^1 file changed since [0-9a-f]{7}: 1 object configured, 1 object unchanged \(incremental run\)/,
    );
    expect((await getLive(client, configMaps, 'cm-a1', ns))?.data).toEqual({ key: 'v2' });

    // A file deleted: its objects are pruned, nothing else.
    commit(repo, { 'apps/b.yaml': null });
    const deleted = await recorded(track);
    expect(deleted.summary.result).toBe('Succeeded');
    expect(deleted.summary.counts).toMatchObject({ applied: 0, pruned: 2, discovered: 4 });
    expect(deleted.requests.filter(trackerList)).toEqual([]);
    expect(await exists(ns, 'cm-b1')).toBe(false);
    expect(await exists(ns, 'cm-b2')).toBe(false);
    for (const n of ['cm-a1', 'cm-a2', 'cm-c1', 'cm-d1']) expect(await exists(ns, n)).toBe(true);
    expect(((await trackStatus(client, track)) as { objectsPlanned?: number }).objectsPlanned).toBe(4);

    // An object moved from one file to another: not pruned, its tracking object follows it.
    commit(repo, { 'apps/c.yaml': null, 'apps/d.yaml': yamlOf(cm('cm-d1'), cm('cm-c1')) });
    const moved = await recorded(track);
    expect(moved.summary.result).toBe('Succeeded');
    expect(moved.summary.counts).toMatchObject({ pruned: 0, discovered: 4 });
    expect(await exists(ns, 'cm-c1')).toBe(true);

    // The drift sweep after them checks every object, and finds nothing to write.
    const sweep = await recorded(track, { mode: 'drift', reason: 'sweep' });
    expect(sweep.summary.result).toBe('Succeeded');
    expect(sweep.requests.filter(trackerList).length).toBeGreaterThan(0);
    expect(sweep.summary.writes.objects).toBe(0);
    expect(sweep.summary.counts).toMatchObject({ inSync: 4, discovered: 4, pruned: 0 });
  });

  it('checks the whole track after a spec change between the commits', async () => {
    const { repo, track } = await appliedTrack('incr-spec');
    await patchTrackSpec(client, track, { serviceAccountName: 'default' });
    commit(repo, { 'apps/a.yaml': yamlOf(cm('cm-a1', 'v2'), cm('cm-a2')) });
    const run = await recorded(track);
    expect(run.summary.result).toBe('Succeeded');
    expect(run.requests.filter(trackerList).length).toBeGreaterThan(0);
    expect(run.requests.filter(childList).length).toBeGreaterThan(0);
    expect((await trackStatus(client, track)).conditions.find((c) => c.type === 'Applied')?.message).toMatch(
      /^6 objects match /,
    );
  });

  it('prunes nothing after a failed apply, and refuses a duplicate of an unchanged file as a whole run does', async () => {
    const { repo, ns, track } = await appliedTrack('incr-fail');
    // b.yaml deleted, and a.yaml now holds an object the API server refuses.
    const bad = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-bad' }, data: { key: 5 } };
    commit(repo, { 'apps/b.yaml': null, 'apps/a.yaml': yamlOf(cm('cm-a1'), cm('cm-a2'), bad) });
    const failed = await recorded(track);
    expect(failed.summary.result).toBe('Failed');
    expect(failed.requests.filter(trackerList)).toEqual([]);
    expect(failed.summary.counts.pruned).toBe(0);
    expect(await exists(ns, 'cm-b1')).toBe(true);
    expect(await exists(ns, 'cm-b2')).toBe(true);

    // A failed run leaves a whole check to the next: a new file defining cm-c1 again is refused.
    commit(repo, { 'apps/a.yaml': yamlOf(cm('cm-a1'), cm('cm-a2')) });
    expect((await e.run(track, { reason: 'push' })).result).toBe('Succeeded');
    commit(repo, { 'apps/e.yaml': yamlOf(cm('cm-c1', 'other')) });
    const duplicate = await recorded(track);
    expect(duplicate.summary.result).toBe('Failed');
    expect(duplicate.requests.filter(trackerList)).toEqual([]);
    expect(duplicate.summary.errors.join('\n')).toMatch(
      /apps\/e\.yaml:1 \(ConfigMap\/\S+\/cm-c1\): the same object is also defined at apps\/c\.yaml/,
    );
    expect((await getLive(client, configMaps, 'cm-c1', ns))?.data).toEqual({ key: 'v1' });
  });
});
