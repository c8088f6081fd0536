import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { awaitedHealthPolicy, reportAwaitedHealth } from '../../../lib/github/awaitedHealthStatus';
import { createGitHubClient } from '../../../lib/github/githubClient';
import type { PushStatusSettings } from '../../../lib/github/pushStatus';
import { type PushStatusDeps, reportPushStatus } from '../../../lib/github/reportPushStatus';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo, git, type TestRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { trackPath } from '../../../lib/track/loadTrack';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, createGitTrack, patchTrackSpec, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { type GitHubRecorder, startGitHubRecorder } from '../../support/githubRecorder';
import {
  allowWidgets,
  installWidgetCrd,
  removeWidgetCrd,
  setWidgetStatus,
  type WidgetKind,
  widget,
} from '../health/widgets';

// The commit status of a pushed commit whose children were still progressing when the run the push
// started ended: pending "waiting for health", recorded on the track, and settled by a later sweep
// (the reconcile function's code path after a reconcile: reportPushStatus, then reportAwaitedHealth).

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

let gh: GitHubRecorder;
let deps: PushStatusDeps;
let github: PushStatusSettings;
let widgets: WidgetKind;
beforeAll(async () => {
  widgets = await installWidgetCrd(client);
  gh = await startGitHubRecorder();
  github = { client: createGitHubClient({ token: 'ghp_health', baseUrl: gh.url }) };
  deps = { github, kube: client };
});
afterAll(async () => {
  await gh.close();
  await removeWidgetCrd(client, widgets);
});
beforeEach(() => {
  gh.requests.length = 0;
});

interface Fixture {
  ns: string;
  owner: string;
  repo: TestRepo;
  track: TrackRef;
  context: string;
}

/**
 * A track whose Widget `db` is current (its operator saw generation 1, Ready=False is overwritten
 * below), so the next commit that changes it leaves it progressing until the test says Ready.
 */
async function fixture(): Promise<Fixture> {
  const ns = await freshNamespace(client, 'ghhealth');
  await allowWidgets(client, widgets, ns);
  const owner = uniqueName('owner');
  const repo = createRepo(server, `${owner}/app`);
  commit(repo, { 'app.yaml': yamlOf(widget(widgets, 'db', 1), configMap('settings')) }, 'first');
  const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
  expect((await e.run(track)).result).toBe('Succeeded');
  await setWidgetStatus(client, widgets, ns, 'db', 'True', 1);
  return { ns, owner, repo, track, context: `lightkeeper/GitTrack/${ns}/${track.name}` };
}

/** A push of a commit that resizes the Widget (a new generation its operator has not seen yet). */
async function push(f: Fixture, size: number) {
  const sha = commit(
    f.repo,
    { 'app.yaml': yamlOf(widget(widgets, 'db', size), configMap('settings')) },
    `size ${size}`,
  );
  const request = { track: f.track, push: { after: sha } };
  // One invocation's dependencies: the repository it read is its own.
  const invocation = { ...deps };
  const outcomes = [await reportPushStatus(invocation, request)];
  const awaitedHealth = awaitedHealthPolicy(github, sha);
  const summary = await e.run(f.track, {}, { awaitedHealth });
  outcomes.push(
    await reportPushStatus(invocation, request, summary),
    await reportAwaitedHealth(invocation, summary),
  );
  return { sha, summary, outcomes };
}

/** A sweep of the track (no push), and what its code path posted. */
async function sweep(f: Fixture) {
  const awaitedHealth = awaitedHealthPolicy(github, undefined);
  const summary = await e.run(f.track, { mode: 'drift', reason: 'sweep' }, { awaitedHealth });
  const request = { track: f.track };
  expect(await reportPushStatus(deps, request, summary)).toMatchObject({ skipped: 'not started by a push' });
  return { summary, outcome: await reportAwaitedHealth(deps, summary) };
}

const awaiting = async (track: TrackRef) =>
  (await client.get<{ status?: { awaitingHealthStatus?: unknown } }>(trackPath(track))).status
    ?.awaitingHealthStatus;

/** The operator reports the Widget as stalled: kstatus' failed state. */
const stallWidget = (ns: string, generation: number) =>
  client.request(
    'PATCH',
    resourcePath({
      apiVersion: widgets.apiVersion,
      plural: 'widgets',
      namespace: ns,
      name: 'db',
      subresource: 'status',
    }),
    {
      body: {
        status: {
          observedGeneration: generation,
          conditions: [
            { type: 'Ready', status: 'False', reason: 'QuotaExceeded', message: 'no quota for the bucket' },
            { type: 'Stalled', status: 'True', reason: 'QuotaExceeded', message: 'no quota for the bucket' },
          ],
        },
      },
      contentType: 'application/merge-patch+json',
    },
  );

describe('the commit status of a pushed commit whose health settles later', () => {
  it('is pending "waiting for health", then success posted once by the sweep that sees it healthy', async () => {
    const f = await fixture();
    const { sha, summary, outcomes } = await push(f, 2);
    expect(summary).toMatchObject({ result: 'Succeeded', health: { healthy: 1, progressing: 1, of: 2 } });
    expect(outcomes).toEqual([
      { posted: true, state: 'pending' },
      { posted: true, state: 'pending' },
      { posted: false, skipped: 'waiting for health' },
    ]);
    expect(gh.requests.map((r) => [r.path, r.body])).toEqual([
      [
        `/repos/${f.owner}/app/statuses/${sha}`,
        { state: 'pending', context: f.context, description: 'reconciling' },
      ],
      [
        `/repos/${f.owner}/app/statuses/${sha}`,
        {
          state: 'pending',
          context: f.context,
          description: 'applied 1, pruned 0, failed 0, healthy 1 of 2, waiting for health',
        },
      ],
    ]);
    expect(await awaiting(f.track)).toEqual({ commit: sha, context: f.context, repository: f.repo.url });

    // Still progressing: the sweep posts nothing and keeps the record.
    expect((await sweep(f)).outcome).toEqual({ posted: false, skipped: 'health not settled' });
    expect(gh.requests).toHaveLength(2);

    await setWidgetStatus(client, widgets, f.ns, 'db', 'True', 2);
    expect((await sweep(f)).outcome).toEqual({ posted: true, state: 'success' });
    expect(gh.requests.slice(2).map((r) => [r.path, r.body])).toEqual([
      [
        `/repos/${f.owner}/app/statuses/${sha}`,
        { state: 'success', context: f.context, description: 'healthy 2 of 2' },
      ],
    ]);
    expect(await awaiting(f.track)).toBeUndefined();

    // Posted once: the next sweep finds no record.
    expect((await sweep(f)).outcome).toEqual({ posted: false, skipped: 'no commit awaits a health status' });
    expect(gh.requests).toHaveLength(3);
  });

  it('is failure naming the child when its operator reports it stalled', async () => {
    const f = await fixture();
    const { sha } = await push(f, 2);
    expect(await awaiting(f.track)).toEqual({ commit: sha, context: f.context, repository: f.repo.url });
    gh.requests.length = 0;

    await stallWidget(f.ns, 2);
    expect((await sweep(f)).outcome).toEqual({ posted: true, state: 'failure' });
    expect(gh.requests.map((r) => [r.path, r.body])).toEqual([
      [
        `/repos/${f.owner}/app/statuses/${sha}`,
        {
          state: 'failure',
          context: f.context,
          description: `unhealthy: healthy 1 of 2, failed 1: Widget.${widgets.group}/${f.ns}/db: no quota for the bucket`,
        },
      ],
    ]);
    expect(await awaiting(f.track)).toBeUndefined();
  });

  it('is replaced by a newer pushed commit: only the newer commit gets the settled status', async () => {
    const f = await fixture();
    const older = await push(f, 2);
    const newer = await push(f, 3);
    expect(newer.outcomes.at(-1)).toEqual({ posted: false, skipped: 'waiting for health' });
    expect(await awaiting(f.track)).toEqual({
      commit: newer.sha,
      context: f.context,
      repository: f.repo.url,
    });
    gh.requests.length = 0;

    await setWidgetStatus(client, widgets, f.ns, 'db', 'True', 3);
    expect((await sweep(f)).outcome).toEqual({ posted: true, state: 'success' });
    expect(gh.requests.map((r) => r.path)).toEqual([`/repos/${f.owner}/app/statuses/${newer.sha}`]);
    expect(gh.requests.map((r) => r.path)).not.toContain(`/repos/${f.owner}/app/statuses/${older.sha}`);
    expect(await awaiting(f.track)).toBeUndefined();
  });

  it('goes to the repository recorded at the push, never to one the track names later', async () => {
    const f = await fixture();
    const { sha } = await push(f, 2);
    expect(await awaiting(f.track)).toEqual({ commit: sha, context: f.context, repository: f.repo.url });
    // The track is pointed at another repository holding the same commit (a fork, say).
    const other = uniqueName('owner');
    const fork = createRepo(server, `${other}/app`);
    git(fork, 'pull', '-q', f.repo.dir, 'main');
    expect(git(fork, 'rev-parse', 'HEAD')).toBe(sha);
    await patchTrackSpec(client, f.track, { repository: fork.url });
    gh.requests.length = 0;

    await setWidgetStatus(client, widgets, f.ns, 'db', 'True', 2);
    const { summary, outcome } = await sweep(f);
    expect(summary).toMatchObject({ result: 'Succeeded', commit: sha });
    expect(outcome).toEqual({ posted: true, state: 'success' });
    expect(gh.requests.map((r) => r.path)).toEqual([`/repos/${f.owner}/app/statuses/${sha}`]);
  });

  it('is failure at once, posted by the push, when the run waited for health (spec.healthTimeout) and it ran out', async () => {
    const f = await fixture();
    await patchTrackSpec(client, f.track, { healthTimeout: '2s' });
    gh.requests.length = 0;
    const { sha, summary, outcomes } = await push(f, 2);
    expect(summary).toMatchObject({ result: 'Failed', health: { healthy: 1, failed: 1, of: 2 } });
    expect(outcomes.slice(1)).toEqual([
      { posted: true, state: 'failure' },
      { posted: false, skipped: 'no commit awaits a health status' },
    ]);
    expect(gh.requests.map((r) => [r.path, (r.body as { state: string }).state])).toEqual([
      [`/repos/${f.owner}/app/statuses/${sha}`, 'pending'],
      [`/repos/${f.owner}/app/statuses/${sha}`, 'failure'],
    ]);
    expect((gh.requests[1]?.body as { description?: string } | undefined)?.description).toMatch(
      new RegExp(
        `^failed: applied 1, pruned 0, failed 0, healthy 1 of 2, failed 1: Widget.${widgets.group}/${f.ns}/db: `,
      ),
    );
    // Posted at most once: nothing awaits health, so a sweep posts nothing more.
    expect(await awaiting(f.track)).toBeUndefined();
    gh.requests.length = 0;
    expect((await sweep(f)).outcome).toEqual({ posted: false, skipped: 'no commit awaits a health status' });
    expect(gh.requests).toEqual([]);
  });
});
