import { describe, expect, it } from 'vitest';
import { diffTrack } from '../../../lib/diff/diffTrack';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { renderKustomization } from '../../../lib/kustomize/renderKustomization';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { defaultSourceLimits } from '../../../lib/settings/sourceLimits';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  getLive,
  includeNamespaced,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { kustomizeFixture } from '../../support/kustomizeFixture';

// Rendered objects go through the GitTrack ownership rules, `lightkeeper diff` and the opt-out like
// files do; every render is bounded in time and output.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

describe('rendered objects', () => {
  it('in a GitTrack, an overlay setting another namespace is ignored with the ownership reason', async () => {
    const ns = await freshNamespace(client, 'kz-own');
    const other = await freshNamespace(client, 'kz-other');
    const repo = createRepo(server, uniqueName('kz-own'));
    commit(
      repo,
      {
        ...kustomizeFixture(other),
        'overlays/mine/kustomization.yaml': 'resources:\n  - ../../components-free\n',
        'components-free/kustomization.yaml': 'resources:\n  - cm.yaml\n',
        'components-free/cm.yaml': yamlOf(configMap('mine')),
      },
      'an overlay into another namespace',
    );
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      subPath: 'overlays/prod',
    });
    const summary = await e.run(track);
    expect(summary.result).toBe('Succeeded');
    expect(summary.counts.applied).toBe(0);
    expect(summary.ignored.map((i) => i.reason)).toEqual(
      Array(4).fill(`namespace ${other} is not managed by this GitTrack`),
    );
    expect(summary.ignored.map((i) => i.path).sort()).toEqual([
      'base/deployment.yaml',
      'base/kustomization.yaml',
      'base/service.yaml',
      'components/monitoring/service-monitor-config.yaml',
    ]);
    expect(await getLive(client, configMaps, 'prod-scrape-targets', other)).toBeUndefined();

    // Without a namespace the overlay's objects land in the GitTrack's own namespace.
    const mine = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      subPath: 'overlays/mine',
    });
    expect(await e.run(mine)).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
    expect(await getLive(client, configMaps, 'mine', ns)).toBeDefined();
  });

  it('`kustomize: {enabled: false}` reads the files as plain manifests, kustomization files left out', async () => {
    const ns = await freshNamespace(client, 'kz-off');
    const repo = createRepo(server, uniqueName('kz-off'));
    commit(
      repo,
      {
        'app/kustomization.yaml': 'namePrefix: rendered-\nresources:\n  - cm.yaml\n',
        'app/cm.yaml': yamlOf(configMap('plain')),
      },
      'a kustomization',
    );
    const rendered = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      subPath: 'app',
    });
    expect(await e.run(rendered)).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
    expect(await getLive(client, configMaps, 'rendered-plain', ns)).toBeDefined();

    const other = await freshNamespace(client, 'kz-off2');
    const plain = await createGitTrack(client, other, {
      repository: repo.url,
      reference: 'main',
      subPath: 'app',
      kustomize: { enabled: false },
    });
    expect(await e.run(plain)).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
    expect(await getLive(client, configMaps, 'plain', other)).toBeDefined();
  });

  it('`lightkeeper diff` compares the rendered objects, and a render error is its parse error', async () => {
    const ns = await freshNamespace(client, 'kz-diff');
    const repo = createRepo(server, uniqueName('kz-diff'));
    commit(repo, kustomizeFixture(ns), 'fixture');
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      subPath: 'overlays/staging',
    });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded' });
    const head = commit(repo, { 'base/config/app.properties': 'greeting=hi\n' }, 'generator input');
    const plan = await diffTrack(client, includeNamespaced, { track, commit: head });
    expect(plan.errors).toEqual([]);
    expect(plan.created).toEqual([expect.stringMatching(/^ConfigMap\/.*\/staging-web-config-[a-z0-9]{10}$/)]);
    expect(plan.pruned.map((p) => p.subject)).toEqual([expect.stringMatching(/staging-web-config-/)]);
    expect(plan.changed.map((c) => c.subject)).toEqual([
      expect.stringMatching(/^Deployment\.apps\/.*\/staging-web$/),
    ]);
    // A working tree (`lightkeeper diff --local`) is rendered in place, the same way.
    const local = await diffTrack(client, includeNamespaced, { track, local: repo.dir });
    expect({ ...local, source: '' }).toEqual({ ...plan, source: '' });

    const broken = commit(
      repo,
      { 'overlays/staging/kustomization.yaml': 'resources:\n  - missing.yaml\n' },
      'broken',
    );
    const refused = await diffTrack(client, includeNamespaced, { track, commit: broken });
    expect(refused.errors.join('\n')).toMatch(
      /^overlays\/staging\/kustomization\.yaml: kustomize build failed: .*missing\.yaml/,
    );
    // Nothing would be pruned: diff lists the tracked objects with the refusal a reconcile would make.
    expect(refused.pruned.every((p) => p.refused === 'this commit has 1 errors')).toBe(true);
  });

  it('follows a symlink that stays inside the repository', async () => {
    const ns = await freshNamespace(client, 'kz-link');
    const repo = createRepo(server, uniqueName('kz-link'));
    commit(
      repo,
      {
        'shared/kustomization.yaml': 'resources:\n  - cm.yaml\n',
        'shared/cm.yaml': yamlOf(configMap('shared')),
        'app/kustomization.yaml': 'resources:\n  - base\n',
      },
      'a base reached through a symlink',
      { symlinks: { 'app/base': '../shared' } },
    );
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      subPath: 'app',
    });
    const summary = await e.run(track);
    expect(summary).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
    expect(await getLive(client, configMaps, 'shared', ns)).toBeDefined();
  });

  it('a render over its time or output cap is stopped and fails', async () => {
    const repo = createRepo(server, uniqueName('kz-caps'));
    commit(repo, kustomizeFixture('caps'), 'fixture');
    const source = { kind: 'local' as const, dir: repo.dir };
    const ok = await renderKustomization({ source, subPath: 'overlays/prod' });
    expect(ok?.errors).toEqual([]);
    const big = await renderKustomization({
      source,
      subPath: 'overlays/prod',
      limits: { ...defaultSourceLimits, render: { timeoutMs: 60_000, maxOutputBytes: 1000 } },
    });
    expect(big?.errors.map((x) => x.message)).toEqual([
      'overlays/prod/kustomization.yaml: kustomize build failed: the render printed more than 1000 bytes and was stopped',
    ]);
    const slow = await renderKustomization({
      source,
      subPath: 'overlays/prod',
      limits: { ...defaultSourceLimits, render: { timeoutMs: 1, maxOutputBytes: 1 << 20 } },
    });
    expect(slow?.errors.map((x) => x.message)).toEqual([
      'overlays/prod/kustomization.yaml: kustomize build failed: the render took longer than 0.001 s and was stopped',
    ]);
  });
});
