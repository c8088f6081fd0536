import { execFile } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { resolveCommitArg } from '../../../lib/cli/resolveCommitArg';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo, git, tag } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import { DEFAULT_GIT_LIMITS } from '../../../lib/settings/sourceLimits';
import { freshNamespace, kubeconfig, uniqueName } from '../../support/cluster';
import { configMap, createGitTrack, type engine, yamlOf } from '../../support/engine';
import { useEngineHarness } from '../../support/engineHarness';

// `--commit` takes what git users type, resolved against the track's remote as the track fetches.

const run = promisify(execFile);
let client: KubeClient;
let server: GitServer;
useEngineHarness(
  (h) => ({ client, server } = h as { client: KubeClient; server: GitServer; e: ReturnType<typeof engine> }),
);

const lightkeeper = (...args: string[]) =>
  run('node', ['bin/lightkeeper.mjs', ...args], { env: { ...process.env, KUBECONFIG: kubeconfig() } }).then(
    (r) => ({ code: 0, ...r }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );

describe('--commit', () => {
  it('resolves a short SHA, a branch and a tag; refuses an ambiguous name and an unknown one', async () => {
    const ns = await freshNamespace(client, 'commit-arg');
    const repo = createRepo(server, uniqueName('commit-arg'));
    const first = commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '1' })) }, 'one');
    tag(repo, 'v1', first, 'release 1');
    const second = commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '2' })) }, 'two');
    const head = commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '3' })) }, 'three');
    git(repo, 'branch', 'release', second);
    git(repo, 'branch', 'both', first);
    tag(repo, 'both', second);
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });

    const resolve = (arg: string) => resolveCommitArg(client, track, arg, DEFAULT_GIT_LIMITS);
    expect(await resolve(head.toUpperCase())).toBe(head);
    expect(await resolve(first.slice(0, 7))).toBe(first);
    expect(await resolve(second.slice(0, 4))).toBe(second);
    expect(await resolve('release')).toBe(second);
    expect(await resolve('v1')).toBe(first);
    expect(await resolve('main')).toBe(head);
    await expect(resolve('both')).rejects.toThrow(
      /--commit both is ambiguous in .*: refs\/heads\/both and refs\/tags\/both/,
    );
    expect(await resolve('refs/tags/both')).toBe(second);
    await expect(resolve('nope')).rejects.toThrow(/--commit nope: no branch or tag of that name/);
    await expect(resolve('0000000')).rejects.toThrow(
      /--commit 0000000: no branch, tag or commit of the last 1000 of main starts with it/,
    );

    // What the CLI does with it: reconcile --commit SHORT applies (and pins) the full commit.
    const pinned = await lightkeeper(
      'reconcile',
      `gt/${track.name}`,
      '-n',
      ns,
      '--commit',
      first.slice(0, 8),
      '--once',
      '-o',
      'json',
    );
    expect(pinned.stderr).toContain(`--commit ${first.slice(0, 8)} is ${first}`);
    expect(JSON.parse(pinned.stdout) as ReconcileSummary).toMatchObject({
      result: 'Succeeded',
      commit: first,
    });
    const refused = await lightkeeper('reconcile', `gt/${track.name}`, '-n', ns, '--commit', 'nope');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('lightkeeper: --commit nope: no branch or tag of that name');
  }, 120_000);
});

/** A loopback port nothing listens on (just closed). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('endpoints that do not answer', () => {
  it('push and replay name the URL and npm start, not fetch failed or AWS settings', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/`;
    const env = {
      ...process.env,
      KUBECONFIG: kubeconfig(),
      LIGHTKEEPER_CACHE: '/nonexistent-lightkeeper-cache',
    };
    const cli = (...args: string[]) =>
      run('node', ['bin/lightkeeper.mjs', ...args], { env }).then(
        (r) => ({ code: 0, ...r }),
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
    const repo = createRepo(server, uniqueName('dead'));
    commit(repo, { 'a.yaml': yamlOf(configMap('a')) }, 'one');
    const push = await cli(
      'push',
      repo.dir,
      '--repo-url',
      repo.url,
      '--webhook',
      `${dead}webhook`,
      '--secret',
      's',
    );
    expect(push.code).toBe(1);
    expect(push.stderr).toMatch(
      new RegExp(
        `^lightkeeper: nothing answers at ${dead}webhook \\(connect ECONNREFUSED [\\d.:]+\\): the webhook is not running there\n`,
      ),
    );
    expect(push.stderr.trimEnd().split('\n')).toHaveLength(2);
    expect(push.stderr).toContain('is `npm start` running?');
    expect(push.stderr).not.toContain('fetch failed');

    const replay = await cli(
      'replay',
      'cgt/x',
      '--function',
      'lightkeeper-dev-reconcile',
      '--endpoint',
      dead,
      '--region',
      'us-east-1',
    );
    expect(replay.code).toBe(1);
    expect(replay.stderr).toMatch(
      new RegExp(
        `^lightkeeper: nothing answers at ${dead} \\(connect ECONNREFUSED [\\d.:]+\\): the reconcile function is not running there\n`,
      ),
    );
    expect(replay.stderr).not.toContain('AWS');

    // Without --function or --webhook and no npm start running: what to do.
    const lost = await cli('replay', 'cgt/x');
    expect(lost.code).toBe(2);
    expect(lost.stderr).toContain('no --function given and no `npm start` running');
    const lostPush = await cli('push', repo.dir);
    expect(lostPush.code).toBe(2);
    expect(lostPush.stderr).toContain('no --webhook given and no `npm start` running');
  }, 60_000);
});
