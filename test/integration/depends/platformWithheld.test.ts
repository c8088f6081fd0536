import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  createClusterGitTrack,
  createGitTrack,
  patchTrackSpec,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

// A tenant's GitTrack that depends on a ClusterGitTrack of a private platform repository: what its
// Ready condition and Events say, and whether the platform's repository is listed on its behalf.

const token = 'platform-only-token';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

let platformGit: GitServer;
beforeAll(async () => {
  platformGit = await startGitServer({ token });
});
afterAll(() => platformGit?.close());

/** The tenant's Ready message and every Event on its GitTrack, as the tenant reads them. */
async function whatTheTenantSees(track: TrackRef): Promise<string[]> {
  const ready = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Ready');
  const events = await client.get<{ items: Array<{ reason: string; message: string }> }>(
    `/api/v1/namespaces/${track.namespace}/events`,
    { query: { fieldSelector: `involvedObject.name=${track.name}` } },
  );
  return [
    `Ready ${ready?.reason}: ${ready?.message}`,
    ...events.items.map((ev) => `${ev.reason}: ${ev.message}`),
  ];
}

/** A ClusterGitTrack of a repository only its token may read, applied once; then a push it has not applied. */
async function privatePlatform(ns: string) {
  await client.request('POST', resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace: ns }), {
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'platform-git' }, stringData: { token } },
  });
  const repo = createRepo(platformGit, uniqueName('platform'));
  const applied = commit(repo, { 'cm.yaml': yamlOf(configMap('platform', { v: '1' }, ns)) }, 'one');
  const platform = await createClusterGitTrack(client, {
    repository: repo.url,
    reference: 'main',
    auth: { type: 'token', secretRef: { name: 'platform-git', namespace: ns } },
  });
  expect(await e.run(platform)).toMatchObject({ result: 'Succeeded', commit: applied });
  const pushed = commit(repo, { 'cm.yaml': yamlOf(configMap('platform', { v: '2' }, ns)) }, 'two');
  return { repo, platform, applied, pushed };
}

describe("a tenant's GitTrack waiting on a ClusterGitTrack", () => {
  it('sees only the reason, never the platform’s commits, repository or head, which is never listed for it', async () => {
    const ns = await freshNamespace(client, 'dep-withheld');
    const { repo: platformRepo, platform, applied, pushed } = await privatePlatform(ns);
    const repo = createRepo(server, uniqueName('tenant'));
    commit(repo, { 'cm.yaml': yamlOf(configMap('tenant')) }, 'tenant');
    const app = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      dependsOn: [{ kind: 'ClusterGitTrack', name: platform.name }],
    });

    // The platform is Ready at its current generation: the tenant goes on, and the platform's
    // repository is not asked for its head on the tenant's behalf (its runs would tell it when
    // the platform pushes).
    const listed = platformGit.requests.length;
    expect(await e.run(app)).toMatchObject({ result: 'Succeeded' });
    expect(platformGit.requests.slice(listed)).toEqual([]);

    // A spec change the platform has not reconciled holds the tenant back, saying only that.
    await patchTrackSpec(client, platform, { pin: { commit: pushed, by: 'platform-team' } });
    const held = await e.run(app);
    expect(held).toMatchObject({ result: 'Waiting' });
    expect(held.waitingFor).toEqual([
      { track: platform, reason: 'its current generation is not reconciled yet' },
    ]);
    expect(platformGit.requests.slice(listed)).toEqual([]);

    const seen = (await whatTheTenantSees(app)).join('\n');
    expect(seen).toContain(
      `waiting for ClusterGitTrack/${platform.name}: its current generation is not reconciled yet`,
    );
    for (const secret of [
      applied,
      pushed,
      applied.slice(0, 7),
      pushed.slice(0, 7),
      platformRepo.url,
      'generation 2',
    ])
      expect(seen).not.toContain(secret);
  });

  it('following the same repository, waits for the head it can read itself, named by no commit', async () => {
    const ns = await freshNamespace(client, 'dep-withheld');
    const repo = createRepo(server, uniqueName('shared'));
    const first = commit(repo, { 'platform/cm.yaml': yamlOf(configMap('platform', { v: '1' }, ns)) }, 'one');
    const platform = await createClusterGitTrack(client, {
      repository: repo.url,
      reference: 'main',
      subPath: 'platform',
    });
    expect((await e.run(platform)).result).toBe('Succeeded');
    const second = commit(
      repo,
      {
        'app/cm.yaml': yamlOf(configMap('tenant')),
        'platform/cm.yaml': yamlOf(configMap('platform', { v: '2' }, ns)),
      },
      'two',
    );
    const app = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      subPath: 'app',
      dependsOn: [{ kind: 'ClusterGitTrack', name: platform.name }],
    });

    const held = await e.run(app);
    expect(held.waitingFor).toEqual([
      { track: platform, reason: 'Ready, but not yet at the commit it is meant to be at', behind: true },
    ]);
    const seen = (await whatTheTenantSees(app)).join('\n');
    for (const secret of [first, second, first.slice(0, 7)]) expect(seen).not.toContain(secret);

    expect((await e.run(platform)).commit).toBe(second);
    expect(await e.run(app)).toMatchObject({ result: 'Succeeded', commit: second });

    // A push that leaves platform/ as it was: the platform counts as at it, read with the app's own
    // credentials from its own URL; the app is applied without a reconcile of the platform.
    const third = commit(repo, { 'app/cm.yaml': yamlOf(configMap('tenant', { v: '3' })) }, 'three');
    expect(await e.run(app)).toMatchObject({ result: 'Succeeded', commit: third });
    expect((await trackStatus(client, platform)).lastAppliedCommit).toBe(second);
  });
});
