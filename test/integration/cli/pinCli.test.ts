import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import type { TrackPin } from '../../../lib/track/trackObject';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, kubeconfig, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  type engine,
  getLive,
  patchTrackSpec,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { useEngineHarness } from '../../support/engineHarness';

// A replay sticks, visibly: `--commit` pins the track until `lightkeeper unpin`; the runs a sweep
// or a push would start (no commit) keep the pin applied, correct drift there, and say what head
// they hold back; `--once` applies a commit without pinning.

const run = promisify(execFile);
let client: KubeClient;
let server: GitServer;
let e: ReturnType<typeof engine>;
useEngineHarness((h) => ({ client, server, e } = h));

const lightkeeper = (...args: string[]) =>
  run('node', ['bin/lightkeeper.mjs', ...args], { env: { ...process.env, KUBECONFIG: kubeconfig() } }).then(
    (r) => ({ code: 0, ...r }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );

/** As the drift sweep starts it: mode drift, no commit. */
const sweep = (track: TrackRef) => e.run(track, { mode: 'drift', reason: 'sweep' });

const liveData = async (ns: string) => (await getLive(client, configMaps, 'a', ns))?.data;

async function pinOf(track: TrackRef): Promise<TrackPin | undefined> {
  const t = await client.get<{ spec: { pin?: TrackPin } }>(
    resourcePath({ ...lightkeeperResources.GitTrack, namespace: track.namespace, name: track.name }),
  );
  return t.spec.pin;
}

async function warnings(ns: string, name: string) {
  const list = await client.get<{ items: Array<{ type: string; reason: string; message: string }> }>(
    `/api/v1/namespaces/${ns}/events`,
    { query: { fieldSelector: `involvedObject.name=${name}` } },
  );
  return list.items.filter((ev) => ev.type === 'Warning');
}

async function twoCommits(prefix: string) {
  const ns = await freshNamespace(client, prefix);
  const repo = createRepo(server, uniqueName(prefix));
  const old = commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '1' })) }, 'one');
  const head = commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '2' })) }, 'two');
  const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
  return { ns, old, head, track };
}

describe('replay pins a track', () => {
  it('reconcile --commit pins; sweeps keep the pin and name the head; unpin lets the head back', async () => {
    const { ns, old, head, track } = await twoCommits('pin');
    const pinned = await lightkeeper(
      'reconcile',
      `gt/${track.name}`,
      '-n',
      ns,
      '--commit',
      old,
      '-o',
      'json',
    );
    expect(pinned.code).toBe(0);
    expect(JSON.parse(pinned.stdout) as ReconcileSummary).toMatchObject({
      result: 'Succeeded',
      commit: old,
      pin: { commit: old, head },
    });
    expect(await pinOf(track)).toMatchObject({ commit: old, by: expect.any(String), at: expect.any(String) });
    expect(await liveData(ns)).toEqual({ v: '1' });

    // Someone edits the live object; the sweep corrects the drift at the pin, not at the head.
    await client.request('PATCH', resourcePath({ ...configMaps, namespace: ns, name: 'a' }), {
      body: { data: { v: 'edited' } },
      contentType: 'application/merge-patch+json',
    });
    const swept = await sweep(track);
    expect(swept).toMatchObject({ result: 'Succeeded', commit: old, pin: { commit: old, head } });
    expect(swept.counts.drifted).toBe(1);
    expect(await liveData(ns)).toEqual({ v: '1' });
    const status = await trackStatus(client, track);
    expect(status.lastAppliedCommit).toBe(old);
    expect(status.observedGeneration).toBe(2);
    expect(status.conditions).toContainEqual(
      expect.objectContaining({
        type: 'Pinned',
        status: 'True',
        message: expect.stringMatching(new RegExp(`^pinned at ${old} by .+, head is ${head}$`)),
      }),
    );
    expect(await warnings(ns, track.name)).toContainEqual(
      expect.objectContaining({
        reason: 'PinnedBehindHead',
        message: expect.stringContaining(`head is ${head}: sweep applied the pin`),
      }),
    );
    expect((await warnings(ns, track.name))[0]?.message).toContain(
      `lightkeeper unpin gittrack/${track.name} -n ${ns}`,
    );

    // A plain reconcile at the terminal reports the pin in its text summary too.
    const plain = await lightkeeper('reconcile', `gt/${track.name}`, '-n', ns);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(`Succeeded at ${old}`);
    expect(plain.stdout).toMatch(
      new RegExp(`pinned at ${old} by .+, head is ${head} \\(\`lightkeeper unpin`),
    );

    const unpinned = await lightkeeper('unpin', `gittrack/${track.name}`, '-n', ns);
    expect(unpinned.code).toBe(0);
    expect(unpinned.stdout).toMatch(
      new RegExp(`^unpinned GitTrack/${ns}/${track.name} \\(was pinned at ${old}`),
    );
    expect(await pinOf(track)).toBeUndefined();
    expect(await liveData(ns)).toEqual({ v: '1' });

    const followed = await sweep(track);
    expect(followed).toMatchObject({ result: 'Succeeded', commit: head });
    expect(followed.pin).toBeUndefined();
    expect(await liveData(ns)).toEqual({ v: '2' });
    expect((await trackStatus(client, track)).conditions).toContainEqual(
      expect.objectContaining({ type: 'Pinned', status: 'False', reason: 'Unpinned' }),
    );

    const again = await lightkeeper('unpin', `gittrack/${track.name}`, '-n', ns);
    expect(again).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/is not pinned: it follows its reference/),
    });
  });

  it('--once applies the commit without pinning: the next sweep returns to the head', async () => {
    const { ns, old, head, track } = await twoCommits('once');
    const once = await lightkeeper('reconcile', `gt/${track.name}`, '-n', ns, '--commit', old, '--once');
    expect(once.code).toBe(0);
    expect(once.stdout).toContain(`Succeeded at ${old}`);
    expect(once.stdout).toMatch(/applied once, not pinned: the next sweep \(within 5 minutes\) or push/);
    expect(await pinOf(track)).toBeUndefined();
    expect(await liveData(ns)).toEqual({ v: '1' });

    expect(await sweep(track)).toMatchObject({ result: 'Succeeded', commit: head });
    expect(await liveData(ns)).toEqual({ v: '2' });
    expect((await trackStatus(client, track)).conditions.map((c) => c.type)).not.toContain('Pinned');
  });

  it('--once without --commit is a usage error', async () => {
    const result = await lightkeeper('reconcile', 'gt/x', '-n', 'default', '--once');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--once needs --commit SHA/);
  });

  it('a suspended track takes a replay that names a commit, and nothing else', async () => {
    const { ns, old, track } = await twoCommits('suspended');
    await patchTrackSpec(client, track, { suspend: true });
    expect(await sweep(track)).toMatchObject({ result: 'Suspended' });
    expect(await liveData(ns)).toBeUndefined();

    const replay = await lightkeeper(
      'reconcile',
      `gt/${track.name}`,
      '-n',
      ns,
      '--commit',
      old,
      '-o',
      'json',
    );
    expect(replay.code).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ result: 'Succeeded', commit: old });
    expect(await liveData(ns)).toEqual({ v: '1' });
    // Still suspended for everything that follows the track, pinned or not.
    expect(await sweep(track)).toMatchObject({ result: 'Suspended' });
  });
});
