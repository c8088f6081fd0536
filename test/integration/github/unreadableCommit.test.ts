import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { awaitedHealthPolicy, reportAwaitedHealth } from '../../../lib/github/awaitedHealthStatus';
import { createGitHubClient } from '../../../lib/github/githubClient';
import type { PushStatusOutcome } from '../../../lib/github/pushStatus';
import { type PushStatusDeps, reportPushStatus } from '../../../lib/github/reportPushStatus';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, createGitTrack, engine, yamlOf } from '../../support/engine';
import { useEngineHarness } from '../../support/engineHarness';
import { type GitHubRecorder, startGitHubRecorder } from '../../support/githubRecorder';

// A GitTrack that names a repository it cannot read — the platform's, private — is still started
// by every push to it (the webhook matches by URL). The reconcile function's code path for the
// statuses (pending once the run fetched, then the outcome, then the awaited health): such a track
// posts nothing on the platform's commits with the deployment's token.

const token = 'platform-git-token';

let client: KubeClient;
let server: GitServer;
useEngineHarness((h) => ({ client, server } = h));

let platformGit: GitServer;
let gh: GitHubRecorder;
let github: PushStatusDeps['github'];
beforeAll(async () => {
  platformGit = await startGitServer({ token });
  gh = await startGitHubRecorder();
  github = { client: createGitHubClient({ token: 'ghp_deployment', baseUrl: gh.url, retryDelayMs: 10 }) };
});
afterAll(async () => {
  await gh?.close();
  await platformGit?.close();
});
beforeEach(() => {
  gh.requests.length = 0;
});

/** What the reconcile function does for a push to `sha`: every status outcome, in order. */
async function pushedRun(track: TrackRef, sha: string) {
  const deps: PushStatusDeps = { github, kube: client };
  const request = { track, push: { after: sha } };
  const outcomes: Array<Promise<PushStatusOutcome>> = [];
  const e = engine(client, {
    ...(github ? { awaitedHealth: awaitedHealthPolicy(github, sha) } : {}),
    onFetched: ({ repository }) => {
      deps.repository = Promise.resolve(repository);
      outcomes.push(reportPushStatus(deps, request));
    },
  });
  try {
    const summary = await e.run(track, { reason: 'push' });
    outcomes.push(reportPushStatus(deps, request, summary), reportAwaitedHealth(deps, summary));
    return { summary, outcomes: await Promise.all(outcomes) };
  } finally {
    e.dispose();
  }
}

const secret = (ns: string, name: string, value: string) =>
  client.request('POST', resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace: ns }), {
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { token: value } },
  });

describe('commit statuses of a track that could not read the pushed commit', () => {
  it('are never posted: no credentials, credentials refused, a Secret it may not read, a repository not found', async () => {
    const owner = uniqueName('platform');
    const platform = createRepo(platformGit, `${owner}/infra`);
    const sha = commit(platform, { 'cm.yaml': yamlOf(configMap('platform')) }, 'platform');
    const ns = await freshNamespace(client, 'ghunread');
    await secret(ns, 'wrong', 'not-the-token');
    await secret(ns, 'platform', token);
    const tracks = {
      'no credentials': await createGitTrack(client, ns, { repository: platform.url, reference: 'main' }),
      'credentials refused': await createGitTrack(client, ns, {
        repository: platform.url,
        reference: 'main',
        auth: { type: 'token', secretRef: { name: 'wrong' } },
      }),
      // The right token, in a Secret the track's ServiceAccount may not read.
      'a Secret it may not read': await createGitTrack(
        client,
        ns,
        {
          repository: platform.url,
          reference: 'main',
          serviceAccountName: 'nobody',
          auth: { type: 'token', secretRef: { name: 'platform' } },
        },
        { access: false },
      ),
      'a repository not found': await createGitTrack(client, ns, {
        repository: server.url(`${owner}/infra`),
        reference: 'main',
      }),
    };
    for (const [why, track] of Object.entries(tracks)) {
      const { summary, outcomes } = await pushedRun(track, sha);
      expect(summary, why).toMatchObject({ result: 'Failed' });
      expect(summary.commit, why).toBeUndefined();
      expect(outcomes, why).toEqual([
        { posted: false, skipped: 'the run read no commit of the repository' },
        { posted: false, skipped: 'reconcile Failed' },
      ]);
    }
    expect(gh.requests).toEqual([]);

    // The same push, to a track that may read the repository: pending once fetched, then the outcome.
    const reader = await createGitTrack(client, ns, {
      repository: platform.url,
      reference: 'main',
      auth: { type: 'token', secretRef: { name: 'platform' } },
    });
    const { outcomes } = await pushedRun(reader, sha);
    expect(outcomes.slice(0, 2)).toEqual([
      { posted: true, state: 'pending' },
      { posted: true, state: 'success' },
    ]);
    expect(gh.requests.map((r) => [r.path, r.body.state])).toEqual([
      [`/repos/${owner}/infra/statuses/${sha}`, 'pending'],
      [`/repos/${owner}/infra/statuses/${sha}`, 'success'],
    ]);
  });
});
