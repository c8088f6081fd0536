import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../../lib/github/githubClient';
import type { PushStatusOutcome } from '../../../lib/github/pushStatus';
import { recordPushStatus } from '../../../lib/github/recordPushStatus';
import { type PushStatusDeps, reportPushStatus } from '../../../lib/github/reportPushStatus';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, createGitTrack, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { type GitHubRecorder, startGitHubRecorder } from '../../support/githubRecorder';

// The reconcile function's commit statuses, through the code path it uses (reportPushStatus, then
// recordPushStatus): the engine reconciles a track of the real git server on the real control
// plane, and the statuses go to a loopback server that answers like GitHub.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

let gh: GitHubRecorder;
let deps: PushStatusDeps;
beforeAll(async () => {
  gh = await startGitHubRecorder();
  const github = createGitHubClient({ token: 'ghp_engine', baseUrl: gh.url, retryDelayMs: 10 });
  deps = { github: { client: github, targetUrl: 'https://ci.example/{namespace}/{name}' }, kube: client };
});
afterAll(() => gh.close());
beforeEach(() => {
  gh.requests.length = 0;
});

/** The log and metrics the function would write, as lists. */
function telemetry() {
  const warnings: unknown[] = [];
  const metrics: Array<[string, number]> = [];
  return {
    warnings,
    metrics,
    record: (outcome: PushStatusOutcome) =>
      recordPushStatus(
        {
          logger: { warn: (message, extra) => warnings.push({ message, ...extra }) },
          metrics: { addMetric: (name, _unit, value) => metrics.push([name, value]) },
        },
        outcome,
      ),
  };
}

async function trackOf(files: Record<string, string>) {
  const ns = await freshNamespace(client, 'ghstatus');
  const owner = uniqueName('owner');
  const repo = createRepo(server, `${owner}/app`);
  const sha = commit(repo, files, 'first');
  const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
  return { ns, owner, repo, sha, track };
}

describe('commit statuses of a reconcile started by a push', () => {
  it('are pending, then success with the counts, on the pushed commit of the track’s repository', async () => {
    const { ns, owner, sha, track } = await trackOf({ 'app.yaml': yamlOf(configMap('a'), configMap('b')) });
    const request = { track, push: { after: sha } };
    const t = telemetry();
    t.record(await reportPushStatus(deps, request));
    const summary = await e.run(track);
    expect(summary).toMatchObject({ result: 'Succeeded', commit: sha });
    t.record(await reportPushStatus(deps, request, summary));

    expect(gh.requests.map((r) => r.path)).toEqual([
      `/repos/${owner}/app/statuses/${sha}`,
      `/repos/${owner}/app/statuses/${sha}`,
    ]);
    expect(gh.requests.map((r) => r.headers.authorization)).toEqual(['token ghp_engine', 'token ghp_engine']);
    const context = `lightkeeper/GitTrack/${ns}/${track.name}`;
    const target_url = `https://ci.example/${ns}/${track.name}`;
    expect(gh.requests.map((r) => r.body)).toEqual([
      { state: 'pending', context, description: 'reconciling', target_url },
      { state: 'success', context, description: 'applied 2, pruned 0, failed 0, healthy 2 of 2', target_url },
    ]);
    expect(t.metrics).toEqual([
      ['commitStatusPosted', 1],
      ['commitStatusPosted', 1],
    ]);
  });

  it('is failure when the pushed commit does not apply', async () => {
    const broken = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [unclosed\n';
    const { sha, track } = await trackOf({ 'app.yaml': broken });
    const request = { track, push: { after: sha } };
    const summary = await e.run(track);
    expect(summary.result).toBe('Failed');
    expect(await reportPushStatus(deps, request, summary)).toEqual({ posted: true, state: 'failure' });
    expect(gh.requests.map((r) => r.body)).toMatchObject([
      { state: 'failure', description: 'failed: applied 0, pruned 0, failed 0' },
    ]);
  });

  it('are not posted for a sweep or a replay (no push)', async () => {
    const { track } = await trackOf({ 'app.yaml': yamlOf(configMap('a')) });
    const summary = await e.run(track);
    expect(summary.result).toBe('Succeeded');
    expect(await reportPushStatus(deps, { track }, summary)).toEqual({
      posted: false,
      skipped: 'not started by a push',
    });
    expect(gh.requests).toEqual([]);
  });

  it('are not posted for a repository on a host the GitHub API does not serve', async () => {
    const { sha, track } = await trackOf({ 'app.yaml': yamlOf(configMap('a')) });
    // The same server, named by another host: a track on another forge.
    const elsewhere = createGitHubClient({
      token: 'ghp_engine',
      baseUrl: gh.url.replace('127.0.0.1', 'localhost'),
    });
    const summary = await e.run(track);
    const outcome = await reportPushStatus(
      { ...deps, github: { client: elsewhere } },
      { track, push: { after: sha } },
      summary,
    );
    expect(outcome).toMatchObject({ posted: false, skipped: expect.stringContaining('is not served by') });
    expect(gh.requests).toEqual([]);
  });

  it('are logged and counted when GitHub keeps failing, and leave the reconcile as it was', async () => {
    const { sha, track } = await trackOf({ 'app.yaml': yamlOf(configMap('a')) });
    const failing = { status: 500, body: { message: 'Internal Server Error' } };
    gh.answer(failing, failing, failing);
    const t = telemetry();
    const summary = await e.run(track);
    t.record(await reportPushStatus(deps, { track, push: { after: sha } }, summary));
    expect(summary).toMatchObject({ result: 'Succeeded', commit: sha, counts: { applied: 1 } });
    expect(gh.requests).toHaveLength(3);
    expect(t.metrics).toEqual([['commitStatusFailed', 1]]);
    expect(t.warnings).toMatchObject([
      { message: 'commit status not posted', outcome: { posted: false, state: 'success', status: 500 } },
    ]);
  });
});
