import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo, gitEnv, type TestRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { loadSourceLimits } from '../../../lib/settings/sourceLimits';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  getLive,
  includeNamespaced,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { startTrickleProxy, type TrickleProxy } from '../../support/trickleProxy';

// A git limit fails the run the way a fetch or parse error does: nothing of the new commit is
// applied, nothing pruned, and the status names the limit and the setting that raises it.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));
const proxies: TrickleProxy[] = [];
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
});

const git = (repo: TestRepo, args: string[], input?: string) =>
  execFileSync('git', ['-C', repo.dir, ...args], { env: gitEnv, input, encoding: 'utf8' }).trim();

/** Commits `app.yaml` beside `deep/`: 12 levels naming the level below twice over one 1 MiB manifest. */
function commitDoublingTree(repo: TestRepo, app: string): string {
  const blob = (text: string) => git(repo, ['hash-object', '-w', '--stdin'], text);
  const big = blob(yamlOf(configMap('big', { v: 'x'.repeat(1024 * 1024) })));
  let deep = git(repo, ['mktree'], `100644 blob ${big}\tbig.yaml\n`);
  for (let level = 0; level < 12; level++)
    deep = git(repo, ['mktree'], `040000 tree ${deep}\ta\n040000 tree ${deep}\tb\n`);
  const root = git(repo, ['mktree'], `100644 blob ${blob(app)}\tapp.yaml\n040000 tree ${deep}\tdeep\n`);
  const head = git(repo, ['commit-tree', root, '-p', 'HEAD', '-m', '4,096 paths to 1 MiB']);
  git(repo, ['update-ref', 'refs/heads/main', head]);
  return head;
}

describe('a commit or server over a git limit', () => {
  it('a commit too large to read is broken: nothing applied, nothing pruned', async () => {
    const ns = await freshNamespace(client, 'too-large');
    const repo = createRepo(server, uniqueName('too-large'));
    const good = commit(
      repo,
      { 'app.yaml': yamlOf(configMap('app', { v: '1' })), 'old.yaml': yamlOf(configMap('old')) },
      'good',
    );
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', commit: good });

    const bad = commitDoublingTree(repo, yamlOf(configMap('app', { v: '2' })));
    const started = Date.now();
    const summary = await e.run(track);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(summary).toMatchObject({ result: 'Failed', commit: bad, counts: { applied: 0, pruned: 0 } });
    expect(summary.errors).toEqual([
      expect.stringMatching(
        /^commit [0-9a-f]{40} is too large to read: deep\/.*big\.yaml makes \d+ bytes of files: over the limit of 32 MiB \(LIGHTKEEPER_GIT_MAX_READ_BYTES\)$/,
      ),
    ]);
    expect((await getLive(client, configMaps, 'app', ns))?.data).toEqual({ v: '1' });
    expect(await getLive(client, configMaps, 'old', ns)).toBeDefined();
    const status = await trackStatus(client, track);
    expect(status).toMatchObject({ lastAppliedCommit: good, lastAttemptedCommit: bad });
    const condition = (type: string) => status.conditions.find((c) => c.type === type);
    expect(condition('Parsed')).toMatchObject({ status: 'False', reason: 'ParseFailed' });
    expect(condition('Pruned')).toMatchObject({ status: 'False', reason: 'PruneSkipped' });
  });

  it('a stalling server fails the fetch at the minimum rate the deployment sets: nothing applied, nothing pruned', async () => {
    const ns = await freshNamespace(client, 'stalling');
    const repo = createRepo(server, uniqueName('stalling'));
    let stall = false;
    const proxy = await startTrickleProxy(server.url(''), {
      match: (req) => stall && req.method === 'POST',
      chunkBytes: 1,
      intervalMs: 2000,
      maxChunks: 30,
    });
    proxies.push(proxy);
    const good = commit(repo, { 'app.yaml': yamlOf(configMap('app', { v: '1' })) }, 'good');
    const track = await createGitTrack(client, ns, { repository: proxy.url(repo.name), reference: 'main' });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', commit: good });

    commit(repo, { 'app.yaml': null, 'new.yaml': yamlOf(configMap('new')) }, 'replace app');
    stall = true;
    // As a deployment sets them (read by the loader): at least 100 bytes in every second.
    const sourceLimits = loadSourceLimits({
      LIGHTKEEPER_GIT_LOW_SPEED_BYTES_PER_SECOND: '100',
      LIGHTKEEPER_GIT_LOW_SPEED_TIME_MS: '1000',
    });
    {
      const started = Date.now();
      const summary = await e.run(track, {}, { config: { ...includeNamespaced, sourceLimits } });
      expect(Date.now() - started).toBeLessThan(6000);
      expect(summary).toMatchObject({ result: 'Failed', counts: { applied: 0, pruned: 0 } });
      expect(summary.errors).toEqual([
        expect.stringMatching(
          /sent \d+ bytes in 1000 ms, below the minimum rate: over the limit of 100 bytes\/s \(LIGHTKEEPER_GIT_LOW_SPEED_BYTES_PER_SECOND\)$/,
        ),
      ]);
    }
    expect(proxy.trickled.length).toBeGreaterThan(0);
    expect(await getLive(client, configMaps, 'app', ns)).toBeDefined();
    expect(await getLive(client, configMaps, 'new', ns)).toBeUndefined();
    const fetched = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Fetched');
    expect(fetched).toMatchObject({ status: 'False', reason: 'FetchFailed' });
  });
});
