import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { githubAppToken, refreshBeforeExpiryMs } from '../../../lib/git/githubAppToken';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, kubeClient, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  engine,
  getLive,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { appKeyPair, type GitHubAppFake, startGitHubAppFake } from '../../support/githubAppFake';

// Issue 18: a private repository read with a GitHub App's installation token, as Flux does since
// 2.5. The App's key and ids sit in a Secret in Flux's format, read as the track.

const appId = '123456';
const installationId = '7890';
const keys = appKeyPair();
let client: KubeClient;
let github: GitHubAppFake;
let server: GitServer;
let e: ReturnType<typeof engine>;
const gitUsers: string[] = [];

beforeAll(async () => {
  client = await kubeClient();
  github = await startGitHubAppFake(appId, keys.publicKey);
  server = await startGitServer({
    accept: (username, password) => {
      gitUsers.push(username);
      return username === 'x-access-token' && github.live(password);
    },
  });
  e = engine(client);
});
afterAll(async () => {
  e.dispose();
  await client.close();
  await server.close();
  await github.close();
});

async function appTrack(privateKey = keys.privateKey) {
  const ns = await freshNamespace(client, 'ghapp');
  const repo = createRepo(server, uniqueName('ghapp'));
  const sha = commit(repo, { 'cm.yaml': yamlOf(configMap('settings')) }, 'first');
  await client.request('POST', resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace: ns }), {
    body: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'github-app' },
      stringData: {
        githubAppID: appId,
        githubAppInstallationID: installationId,
        githubAppPrivateKey: privateKey,
        githubAppBaseURL: github.url,
      },
    },
  });
  const track = await createGitTrack(client, ns, {
    repository: repo.url,
    reference: 'main',
    auth: { type: 'githubApp', secretRef: { name: 'github-app' } },
  });
  return { ns, sha, track };
}

describe('a GitTrack with auth.type githubApp', () => {
  it('reconciles a private repository with an installation token, reused by the next run', async () => {
    const { ns, sha, track } = await appTrack();
    const before = github.minted.length;
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', commit: sha });
    expect(await getLive(client, configMaps, 'settings', ns)).toBeDefined();
    expect(github.minted.length).toBe(before + 1);
    expect(github.minted.at(-1)?.installationId).toBe(installationId);
    expect(gitUsers.at(-1)).toBe('x-access-token');

    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', commit: sha });
    expect(github.minted.length).toBe(before + 1);
  });

  it('mints a new token once the cached one is near its expiry', async () => {
    github.state.tokenLifetimeMs = refreshBeforeExpiryMs + 1500;
    try {
      const { sha, track } = await appTrack();
      const before = github.minted.length;
      expect(await e.run(track)).toMatchObject({ result: 'Succeeded', commit: sha });
      expect(github.minted.length).toBe(before + 1);
      const first = github.minted.at(-1);
      await expect
        .poll(() => Date.now() > (first?.expiresAt ?? 0) - refreshBeforeExpiryMs, {
          timeout: 5000,
          interval: 100,
        })
        .toBe(true);
      expect(await e.run(track)).toMatchObject({ result: 'Succeeded', commit: sha });
      expect(github.minted.length).toBe(before + 2);
      expect(github.minted.at(-1)?.token).not.toBe(first?.token);
    } finally {
      github.state.tokenLifetimeMs = 60 * 60_000;
    }
  });

  it('fails with the Secret and GitHub’s reason, never the key, when the key is wrong', async () => {
    const wrong = appKeyPair().privateKey;
    const { ns, track } = await appTrack(wrong);
    const run = await e.run(track);
    expect(run.result).toBe('Failed');
    const fetched = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Fetched');
    expect(fetched).toMatchObject({ status: 'False', reason: 'FetchFailed' });
    expect(fetched?.message).toContain(`Secret ${ns}/github-app`);
    expect(fetched?.message).toContain(
      `GitHub App ${appId} installation ${installationId}: no installation token: GitHub answered HTTP 401: A JSON web token could not be decoded`,
    );
    const keyLine = wrong.split('\n')[1] ?? 'missing';
    expect(JSON.stringify({ run, fetched })).not.toContain(keyLine);
    expect(await getLive(client, configMaps, 'settings', ns)).toBeUndefined();
  });
});

describe('githubAppToken', () => {
  const app = { appId, installationId, privateKey: keys.privateKey, baseUrl: '' };
  it('never shares a token across identities, installations or keys', async () => {
    const withFake = { ...app, baseUrl: github.url };
    const scope = { identity: 'tenant-a', subject: 'Secret a/s' };
    const { token: a } = await githubAppToken(withFake, scope);
    expect((await githubAppToken(withFake, scope)).token).toBe(a);
    const others = [
      (await githubAppToken(withFake, { identity: 'tenant-b', subject: 'Secret b/s' })).token,
      (await githubAppToken({ ...withFake, installationId: '1111' }, scope)).token,
    ];
    expect(new Set([a, ...others]).size).toBe(3);
    const wrongKey = await githubAppToken({ ...withFake, privateKey: appKeyPair().privateKey }, scope).catch(
      (error: Error) => error,
    );
    expect(wrongKey).toBeInstanceOf(Error);
  });

  it('refuses to send the App’s JWT over plain http to a host other than loopback', async () => {
    const before = github.minted.length + github.refused.length;
    const error = await githubAppToken(
      { ...app, baseUrl: 'http://ghe.example.invalid/api/v3' },
      { identity: 'x', subject: 'Secret x/s' },
    ).catch((e: Error) => e);
    expect(String(error)).toMatch(
      /Secret x\/s: githubAppBaseURL: refusing to send credentials over plain http/,
    );
    expect(github.minted.length + github.refused.length).toBe(before);
  });

  it('names an unusable key without quoting it', async () => {
    const broken =
      '-----BEGIN RSA PRIVATE KEY-----\nnot-a-key-at-all-5ecret\n-----END RSA PRIVATE KEY-----\n';
    const error = await githubAppToken(
      { ...app, baseUrl: github.url, privateKey: broken },
      { identity: 'x', subject: 'Secret x/s' },
    ).catch((e: Error) => e);
    expect(String(error)).toMatch(
      /Secret x\/s: GitHub App 123456 installation 7890: no installation token: /,
    );
    expect(`${String(error)} ${(error as Error).stack}`).not.toContain('5ecret');
  });
});
