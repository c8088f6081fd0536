import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { kubeClientFromFile } from '../../../lib/kube/loadKubeConfig';
import { resourcePath } from '../../../lib/kube/paths';
import { defaultRequestPolicy } from '../../../lib/kube/requestPolicy';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { ReconcilePhase } from '../../../lib/reconcile/reconcileDeps';
import { type ApiServerFreezer, apiServerFreezer } from '../../support/apiServerFreezer';
import { freshNamespace, kubeconfig, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  engine,
  getLive,
  type Live,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { useEngineHarness } from '../../support/engineHarness';

// The API server frozen with SIGSTOP accepts connections and never answers: the worst case for
// a client without deadlines. Small deadlines keep these tests short; the defaults are 5 s / 30 s.
const small = { connectTimeoutMs: 500, responseTimeoutMs: 1_000, attempts: 2 };

const run = promisify(execFile);
let client: KubeClient;
let server: GitServer;
let e: ReturnType<typeof engine>;
useEngineHarness((h) => ({ client, server, e } = h));

let frozen: ApiServerFreezer;

describe.skipIf(!apiServerFreezer())('an unreachable API server', () => {
  beforeAll(() => {
    frozen = apiServerFreezer() as ApiServerFreezer;
  });
  afterAll(async () => {
    await frozen?.thaw(client);
  });

  it('ends `lightkeeper reconcile` in bounded time with one clear line, exit 3 and no stack', async () => {
    const ns = await freshNamespace(client, 'frozen-cli');
    const repo = createRepo(server, uniqueName('frozen-cli'));
    commit(repo, { 'a.yaml': yamlOf(configMap('a')) }, 'one');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const started = Date.now();
    frozen.freeze();
    let result: { code: number; stdout: string; stderr: string };
    try {
      result = await run('node', ['bin/lightkeeper.mjs', 'reconcile', `gt/${track.name}`, '-n', ns], {
        timeout: 60_000,
        env: {
          ...process.env,
          KUBECONFIG: kubeconfig(),
          LIGHTKEEPER_CONNECT_TIMEOUT_MS: String(small.connectTimeoutMs),
          LIGHTKEEPER_REQUEST_TIMEOUT_MS: String(small.responseTimeoutMs),
          LIGHTKEEPER_REQUEST_ATTEMPTS: String(small.attempts),
        },
      }).then(
        (r) => ({ code: 0, ...r }),
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
    } finally {
      await frozen.thaw(client);
    }
    // Mostly the CLI's own start on a busy machine; without deadlines the run would hang on.
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^lightkeeper: cannot reach the Kubernetes API server at https:\/\/127\.0\.0\.1:\d+: no connection within 0\.5 s \(GET \/apis\/.*, 2 attempts\)$/,
    );
    expect(lines[1]).toMatch(/KUBECONFIG/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['as the apply phase starts', 0],
    ['after the first object applied', 1],
  ])(
    'stops a reconcile frozen %s: nothing pruned, a clear error, the failure in the status',
    async (_, freezeAt) => {
      const ns = await freshNamespace(client, 'frozen-apply');
      const repo = createRepo(server, uniqueName('frozen-apply'));
      commit(
        repo,
        {
          'a.yaml': yamlOf(configMap('a')),
          'b.yaml': yamlOf(configMap('b')),
          'c.yaml': yamlOf(configMap('c')),
        },
        'three',
      );
      const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
      expect((await e.run(track)).result).toBe('Succeeded');
      const uids = async () =>
        Promise.all(['b', 'c'].map(async (n) => (await getLive(client, configMaps, n, ns))?.metadata.uid));
      const staleBefore = await uids();
      const trackersBefore = await listTrackerNames(client, ns);
      expect(trackersBefore).toHaveLength(3);

      // b and c leave git (stale: a prune would delete them); a changes and d is new (two writes).
      commit(
        repo,
        { 'a.yaml': yamlOf(configMap('a', { key: 'changed' })), 'b.yaml': null, 'c.yaml': null },
        'one changed',
      );
      commit(repo, { 'd.yaml': yamlOf(configMap('d')) }, 'one new');

      const impatient = await kubeClientFromFile(kubeconfig(), {
        policy: { ...defaultRequestPolicy, ...small },
      });
      const phases: string[] = [];
      const fragile = engine(impatient, {
        concurrency: 1,
        // Frozen at the start of the apply or after its first object, thawed when the run has given
        // up and reports.
        onProgress: (phase: ReconcilePhase, done?: number) => {
          phases.push(phase);
          if (phase === 'apply' && done === freezeAt) frozen.freeze();
          if (phase === 'status') frozen.resume();
        },
      });
      const started = Date.now();
      try {
        const summary = await fragile.run(track);
        expect(Date.now() - started).toBeLessThan(30_000);
        expect(phases).not.toContain('prune');
        expect(summary.result).toBe('Failed');
        expect(summary.counts).toMatchObject({ applied: freezeAt, failed: 2 - freezeAt, pruned: 0 });
        const failed = summary.changes.find((c) => c.action === 'failed');
        expect(failed?.message).toMatch(
          /cannot reach the Kubernetes API server at https:\/\/127\.0\.0\.1:\d+: no /,
        );
      } finally {
        await frozen.thaw(client);
        fragile.dispose();
        await impatient.close();
      }

      expect(await uids()).toEqual(staleBefore);
      expect(await listTrackerNames(client, ns)).toEqual(expect.arrayContaining(trackersBefore));
      const status = await trackStatus(client, track);
      const condition = (type: string) => status.conditions.find((c) => c.type === type);
      expect(condition('Ready')).toMatchObject({ status: 'False' });
      expect(condition('Applied')).toMatchObject({
        status: 'False',
        message: expect.stringMatching(/cannot reach the Kubernetes API server/),
      });
      expect(condition('Pruned')).toMatchObject({ status: 'False', reason: 'PruneSkipped' });

      // Once the server answers, the next reconcile finishes the job, prune included.
      const after = await e.run(track);
      expect(after).toMatchObject({ result: 'Succeeded', counts: { pruned: 2 } });
    },
  );
});

async function listTrackerNames(client: KubeClient, namespace: string): Promise<string[]> {
  const list = await client.get<{ items: Live[] }>(
    resourcePath({ ...lightkeeperResources.GitTrackObject, namespace }),
  );
  return list.items.map((i) => i.metadata.name);
}
