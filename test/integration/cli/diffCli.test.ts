import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { DiffPlan } from '../../../lib/diff/diffPlan';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, kubeconfig, uniqueName } from '../../support/cluster';
import { configMap, createGitTrack, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { createRole, grant } from '../../support/tenancy';

const run = promisify(execFile);
let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const lightkeeper = (...args: string[]) => lightkeeperWith({}, ...args);
const lightkeeperWith = (env: Record<string, string>, ...args: string[]) =>
  run('node', ['bin/lightkeeper.mjs', ...args], {
    env: { ...process.env, KUBECONFIG: kubeconfig(), ...env },
  }).then(
    (r) => ({ code: 0, ...r }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );

const secret = (password: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'creds' },
  stringData: { password, user: 'admin' },
});

// No strategy, progressDeadlineSeconds, revisionHistoryLimit…: the server defaults them.
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas: 0,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'registry.invalid/web:1' }] },
    },
  },
};

/** resourceVersion of every object of these types in `ns`, and of its tracking objects. */
async function versions(ns: string): Promise<Record<string, string>> {
  const types = [
    { apiVersion: 'v1', plural: 'configmaps' },
    { apiVersion: 'v1', plural: 'secrets' },
    { apiVersion: 'apps/v1', plural: 'deployments' },
    lightkeeperResources.GitTrackObject,
  ];
  const out: Record<string, string> = {};
  for (const t of types) {
    const list = await client.get<{ items: Array<{ metadata: { name: string; resourceVersion: string } }> }>(
      resourcePath({ ...t, namespace: ns }),
    );
    for (const i of list.items) out[`${t.plural}/${i.metadata.name}`] = i.metadata.resourceVersion;
  }
  return out;
}

describe('lightkeeper diff', () => {
  it('shows exactly what a new commit changes, masks Secret values, writes nothing; the applied commit diffs clean', async () => {
    const ns = await freshNamespace(client, 'diff');
    const repo = createRepo(server, uniqueName('diff'));
    const applied = commit(
      repo,
      {
        'changed.yaml': yamlOf(configMap('changed', { key: 'old' })),
        'removed.yaml': yamlOf(configMap('removed')),
        'same.yaml': yamlOf(configMap('same')),
        'secret.yaml': yamlOf(secret('hunter2')),
        'web.yaml': yamlOf(deployment),
      },
      'first',
    );
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).result).toBe('Succeeded');
    const trackArgs = [`gittrack/${track.name}`, '-n', ns];

    const clean = await lightkeeper('diff', ...trackArgs, '--commit', applied);
    expect(clean.stderr).toBe('');
    expect(clean.code).toBe(0);
    expect(clean.stdout).not.toMatch(/^[-+@]/m);
    expect(clean.stdout).toMatch(/0 changed, 0 created, 0 pruned, 5 unchanged/);

    const next = commit(
      repo,
      {
        'changed.yaml': yamlOf(configMap('changed', { key: 'new' })),
        'added.yaml': yamlOf(configMap('added')),
        'removed.yaml': null,
        'secret.yaml': yamlOf(secret('hunter3')),
      },
      'second',
    );
    const before = await versions(ns);
    const json = await lightkeeper('diff', ...trackArgs, '--commit', next, '-o', 'json');
    expect(json.code).toBe(1);
    const plan = JSON.parse(json.stdout) as DiffPlan;
    expect(plan.source).toBe(next);
    expect(plan.changed.map((c) => c.subject).sort()).toEqual([
      `ConfigMap/${ns}/changed`,
      `Secret/${ns}/creds`,
    ]);
    expect(plan.created).toEqual([`ConfigMap/${ns}/added`]);
    expect(plan.pruned).toEqual([{ subject: `ConfigMap/${ns}/removed` }]);
    expect(plan).toMatchObject({ unchanged: 2, conflicts: [], errors: [] });

    const text = await lightkeeper('diff', ...trackArgs, '--commit', next);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`--- ConfigMap/${ns}/changed (live)`);
    expect(text.stdout).toMatch(/^- {2}key: old$/m);
    expect(text.stdout).toMatch(/^\+ {2}key: new$/m);
    // The changed password is marked, the unchanged user hidden; neither value appears.
    expect(text.stdout).toMatch(/^- {2}password: "?\*{5}"?$/m);
    expect(text.stdout).toMatch(/^\+ {2}password: \+{5} \(changed\)$/m);
    expect(text.stdout).toMatch(/^ {3}user: "?\*{5}"?$/m);
    for (const leak of [
      'hunter',
      Buffer.from('hunter2').toString('base64'),
      Buffer.from('hunter3').toString('base64'),
      Buffer.from('admin').toString('base64'),
    ]) {
      expect(text.stdout).not.toContain(leak);
    }
    expect(text.stdout).not.toContain('Deployment');
    expect(text.stdout).toMatch(/would create:\n {2}ConfigMap\/\S+\/added/);
    expect(text.stdout).toMatch(/would prune:\n {2}ConfigMap\/\S+\/removed/);
    expect(await versions(ns)).toEqual(before);
  });

  it('--local compares an uncommitted working tree', async () => {
    const ns = await freshNamespace(client, 'diff-local');
    const repo = createRepo(server, uniqueName('diff-local'));
    commit(
      repo,
      { 'deploy/a.yaml': yamlOf(configMap('a', { key: 'one' })), 'other.yaml': yamlOf(configMap('x')) },
      'first',
    );
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      subPath: 'deploy',
    });
    expect((await e.run(track)).result).toBe('Succeeded');
    writeFileSync(join(repo.dir, 'deploy', 'a.yaml'), yamlOf(configMap('a', { key: 'two' })));
    const before = await versions(ns);

    const result = await lightkeeper(
      'diff',
      `gittrack/${track.name}`,
      '-n',
      ns,
      '--local',
      repo.dir,
      '-o',
      'json',
    );
    expect(result.code).toBe(1);
    const plan = JSON.parse(result.stdout) as DiffPlan;
    expect(plan.source).toBe(`local ${repo.dir}`);
    expect(plan.changed).toHaveLength(1);
    expect(plan.changed[0]?.diff).toMatch(/^- {2}key: one\n\+ {2}key: two$/m);
    expect(plan).toMatchObject({ created: [], pruned: [], unchanged: 0 });
    // The subPath folder itself names the same tree; a folder that is neither is refused, naming both.
    const fromSubPath = await lightkeeper(
      'diff',
      `gt/${track.name}`,
      '-n',
      ns,
      '--local',
      join(repo.dir, 'deploy'),
      '-o',
      'json',
    );
    expect(fromSubPath.code).toBe(1);
    expect(JSON.parse(fromSubPath.stdout)).toMatchObject({ source: `local ${repo.dir}`, changed: [{}] });
    const elsewhere = await lightkeeper('diff', `gt/${track.name}`, '-n', ns, '--local', tmpdir());
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain("has no folder deploy/ (the track's subPath), nor is it that folder");

    // A file that does not parse is an error (exit 2), and nothing is offered for pruning.
    writeFileSync(join(repo.dir, 'deploy', 'broken.yaml'), 'kind: ConfigMap\nmetadata: [\n');
    const broken = await lightkeeper('diff', `gittrack/${track.name}`, '-n', ns, '--local', repo.dir);
    expect(broken.code).toBe(2);
    expect(broken.stdout).toMatch(/errors:\n {2}deploy\/broken\.yaml/);
    expect(await versions(ns)).toEqual(before);
  });

  it('reports an error, not a diff, when the track identity may not read a type', async () => {
    const ns = await freshNamespace(client, 'diff-rbac');
    const repo = createRepo(server, uniqueName('diff-rbac'));
    const head = commit(
      repo,
      { 'cm.yaml': yamlOf(configMap('cm')), 'secret.yaml': yamlOf(secret('x')) },
      'first',
    );
    await createRole(client, ns, 'configmaps-only', [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'create', 'patch', 'update'] },
    ]);
    await grant(client, ns, { role: 'configmaps-only' });
    const track = await createGitTrack(
      client,
      ns,
      { repository: repo.url, reference: 'main' },
      { access: false },
    );

    const result = await lightkeeper('diff', `gittrack/${track.name}`, '-n', ns, '--commit', head);
    expect(result.code).toBeGreaterThanOrEqual(2);
    expect(result.stdout).not.toContain('would create');
    expect(result.stderr).toMatch(/^lightkeeper: .*secrets/m);
  });

  it('leaves no clone and no render scratch behind in the OS temp dir', async () => {
    const ns = await freshNamespace(client, 'diff-tmp');
    const repo = createRepo(server, uniqueName('diff-tmp'));
    const first = commit(
      repo,
      {
        'kustomization.yaml': 'resources: [a.yaml]\ncommonLabels: { app: demo }\n',
        'a.yaml': yamlOf(configMap('a', { v: '1' })),
      },
      'one',
    );
    commit(repo, { 'a.yaml': yamlOf(configMap('a', { v: '2' })) }, 'two');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const tmp = mkdtempSync(join(tmpdir(), 'diff-tmpdir-'));
    try {
      // The head of main (resolved from the remote) and a given commit: a clone each, both rendered.
      const head = await lightkeeperWith({ TMPDIR: tmp }, 'diff', `gittrack/${track.name}`, '-n', ns);
      expect(head.stdout).toMatch(/would create:\n {2}ConfigMap\/\S+\/a/);
      expect(head.code, head.stderr).toBe(1);
      const pinned = await lightkeeperWith(
        { TMPDIR: tmp },
        'diff',
        `gittrack/${track.name}`,
        '-n',
        ns,
        '--commit',
        first,
      );
      expect(pinned.code, pinned.stderr).toBe(1);
      // tsx keeps its compile cache there (tsx-<uid>), which is meant to last.
      expect(readdirSync(tmp).filter((name) => !name.startsWith('tsx-'))).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
