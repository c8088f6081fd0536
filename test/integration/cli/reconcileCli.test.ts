import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import { freshNamespace, kubeconfig, uniqueName } from '../../support/cluster';
import { configMap, configMaps, createGitTrack, getLive, yamlOf } from '../../support/engine';
import { useEngineHarness } from '../../support/engineHarness';

const run = promisify(execFile);
let client: KubeClient;
let server: GitServer;
useEngineHarness((h) => ({ client, server } = h));

const lightkeeper = (...args: string[]) => lightkeeperWith({}, ...args);
const lightkeeperWith = (env: Record<string, string>, ...args: string[]) =>
  run('node', ['bin/lightkeeper.mjs', ...args], {
    env: { ...process.env, KUBECONFIG: kubeconfig(), ...env },
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

describe('lightkeeper reconcile', () => {
  it('applies a pinned commit and prints a JSON summary', async () => {
    const ns = await freshNamespace(client, 'cli');
    const repo = createRepo(server, uniqueName('cli'));
    const first = commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '1' })) }, 'one');
    commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '2' })) }, 'two');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const result = await lightkeeper(
      'reconcile',
      `gittrack/${track.name}`,
      '-n',
      ns,
      '--commit',
      first,
      '-o',
      'json',
    );
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as ReconcileSummary;
    expect(summary).toMatchObject({ result: 'Succeeded', commit: first, counts: { applied: 1 } });
    expect((await getLive(client, configMaps, 'a', ns))?.data).toEqual({ v: '1' });
    expect(result.stderr).toMatch(/apply 1\/1/);
  });

  it('exits non-zero with a readable account of what failed', async () => {
    const ns = await freshNamespace(client, 'cli-fail');
    const repo = createRepo(server, uniqueName('cli-fail'));
    commit(
      repo,
      {
        'bad.yaml': 'kind: ConfigMap\nmetadata: {name: x}\n',
        'other.yaml': yamlOf(configMap('other', {}, 'elsewhere')),
      },
      'bad',
    );
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const result = await lightkeeper('reconcile', `gt/${track.name}`, '-n', ns);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/GitTrack .*: Failed at [0-9a-f]{40}/);
    expect(result.stdout).toMatch(
      /\n {2}nothing of [0-9a-f]{40} applied, nothing pruned: it does not parse\n/,
    );
    expect(result.stdout).toMatch(/errors:\n {2}bad\.yaml:1.*apiVersion/);

    commit(repo, { 'bad.yaml': yamlOf(configMap('x')) }, 'fixed');
    const fixed = await lightkeeper('reconcile', `gt/${track.name}`, '-n', ns);
    expect(fixed.code).toBe(0);
    // Skipped for safety is not all green: the second line says it.
    expect(fixed.stdout.split('\n')[1]).toBe(
      '  skipped for safety: 1 objects this track may not apply (listed under "ignored")',
    );
    expect(fixed.stdout).toMatch(
      /ignored:\n {2}ConfigMap\/elsewhere\/other \(other\.yaml\): namespace elsewhere is not managed by this GitTrack/,
    );
  });

  it('exits 1 when the run waited for health (spec.healthTimeout) and a child never became healthy', async () => {
    const ns = await freshNamespace(client, 'cli-health');
    const repo = createRepo(server, uniqueName('cli-health'));
    // With no scheduler and no kubelet, a Deployment of one replica never becomes available.
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'a', image: 'busybox' }] },
        },
      },
    };
    commit(repo, { 'd.yaml': yamlOf(deployment) }, 'web');
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      healthTimeout: '2s',
    });
    const result = await lightkeeper('reconcile', `gt/${track.name}`, '-n', ns);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/GitTrack .*: Failed at [0-9a-f]{40}/);
    expect(result.stdout).toMatch(
      new RegExp(`errors:\n {2}health check failed: healthy 0 of 1, failed 1; Deployment.apps/${ns}/web: `),
    );
  });

  it('leaves no clone behind in the OS temp dir', async () => {
    const ns = await freshNamespace(client, 'cli-tmp');
    const repo = createRepo(server, uniqueName('cli-tmp'));
    commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '1' })) }, 'one');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const tmp = mkdtempSync(join(tmpdir(), 'cli-tmpdir-'));
    try {
      const result = await lightkeeperWith({ TMPDIR: tmp }, 'reconcile', `gt/${track.name}`, '-n', ns);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/Succeeded at [0-9a-f]{40} \(main\)/);
      // tsx keeps its compile cache there (tsx-<uid>), which is meant to last.
      expect(readdirSync(tmp).filter((name) => !name.startsWith('tsx-'))).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('refuses a GitTrack without a namespace, as a usage error', async () => {
    const result = await lightkeeper('reconcile', 'gittrack/x');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/a GitTrack needs a namespace \(-n NAMESPACE\)/);
  });
});
