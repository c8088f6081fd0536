import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { type CommitOptions, commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMaps,
  createGitTrack,
  engine,
  getLive,
  includeNamespaced,
  trackStatus,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { kustomizeFixture } from '../../support/kustomizeFixture';
import { present } from '../../support/present';

// A kustomization may read only its own repository: a base or file outside it (by path or by
// symlink), a remote base or resource (unless the track allows them), exec functions and Helm are
// refused. The refusal is a parse error naming the reason; nothing of the commit is applied and
// nothing is pruned.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));
const scratch = mkdtempSync(join(tmpdir(), 'lk-kustomize-refusals-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const overlay = (ns: string, extra: string) =>
  `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: ${ns}
resources:
  - ../../base
${extra}`;

/** A repository holding a ConfigMap the API server would accept, served by the test's git server. */
function remoteRepo(): { name: string; url: string } {
  const name = `${uniqueName('kz-remote')}.git`;
  const repo = createRepo(server, name);
  commit(
    repo,
    {
      'base/kustomization.yaml': 'resources:\n  - cm.yaml\n',
      'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-remote\ndata:\n  k: v\n',
    },
    'remote base',
  );
  return { name, url: repo.url };
}

type Case = {
  name: string;
  files: (ns: string) => Record<string, string>;
  options?: () => CommitOptions;
  reason: RegExp;
  /** A repository the render must not have contacted. */
  untouched?: string;
};

// A base kustomize itself would load (a directory is a new root), but outside the repository.
const outsideBase = join(scratch, 'outside-base');
mkdirSync(outsideBase);
writeFileSync(join(outsideBase, 'kustomization.yaml'), 'resources:\n  - cm.yaml\n');
writeFileSync(
  join(outsideBase, 'cm.yaml'),
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: stolen\ndata:\n  k: v\n',
);
let remote: { name: string; url: string };

const cases: Case[] = [
  {
    name: 'a base outside the repository',
    files: (ns) => ({ 'overlays/prod/kustomization.yaml': overlay(ns, '  - ../../../tmp\n') }),
    reason: /kustomize build failed: \.\.\/tmp is outside the repository/,
  },
  {
    name: 'a symlink leading out of the repository',
    files: (ns) => ({ 'overlays/prod/kustomization.yaml': overlay(ns, '  - leak\n') }),
    options: () => ({ symlinks: { 'overlays/prod/leak': outsideBase } }),
    reason: /overlays\/prod\/leak is outside the repository: a symlink leads to .*outside-base/,
  },
  {
    name: 'a remote base (git)',
    files: (ns) => ({
      'overlays/prod/kustomization.yaml': overlay(ns, `  - ${remote.url}//base?ref=main\n`),
    }),
    reason: /remote bases and resources are not allowed for this track \(spec\.kustomize\.allowRemote\)/,
    untouched: 'remote',
  },
  {
    name: 'a remote resource (http)',
    files: (ns) => ({ 'overlays/prod/kustomization.yaml': overlay(ns, `  - ${remote.url}/base/cm.yaml\n`) }),
    reason: /remote bases and resources are not allowed for this track/,
    untouched: 'remote',
  },
  {
    name: 'an exec KRM function',
    files: (ns) => ({
      'overlays/prod/kustomization.yaml': `${overlay(ns, '')}transformers:\n  - fn.yaml\n`,
      'overlays/prod/fn.yaml':
        'apiVersion: example.com/v1\nkind: Touch\nmetadata:\n  name: touch\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: /bin/touch\n',
    }),
    reason: /kustomize build failed: .*(plugin|function|exec)/is,
  },
  {
    name: 'a Helm chart',
    files: (ns) => ({
      'overlays/prod/kustomization.yaml': `${overlay(ns, '')}helmCharts:\n  - name: nginx\n    repo: https://charts.example\n    version: 1.0.0\n`,
    }),
    reason: /kustomize build failed: .*helm/is,
  },
];

describe('a kustomization that reaches beyond its repository', () => {
  it.each(cases)('is refused: $name, with its reason, and nothing is pruned', async (c) => {
    remote ??= remoteRepo();
    const ns = await freshNamespace(client, 'kz-refuse');
    const repo = createRepo(server, uniqueName('kz-refuse'));
    const good = commit(repo, kustomizeFixture(ns), 'fixture');
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      subPath: 'overlays/prod',
    });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', commit: good });
    const before = present(
      await getLive(client, configMaps, 'prod-scrape-targets', ns),
      'the prod ConfigMap',
    );

    const seen = server.requests.length;
    // The new overlay drops the component: its ConfigMap would be pruned if the commit applied.
    const bad = commit(repo, c.files(ns), c.name, c.options?.());
    const summary = await e.run(track);
    expect(summary).toMatchObject({
      result: 'Failed',
      commit: bad,
      deployed: { extent: 'broken' },
      counts: { applied: 0, pruned: 0 },
    });
    expect(summary.errors.join('\n')).toMatch(c.reason);
    expect(summary.errors[0]).toMatch(/^overlays\/prod\/kustomization\.yaml: kustomize build failed: /);
    expect((await getLive(client, configMaps, 'prod-scrape-targets', ns))?.metadata.uid).toBe(
      before.metadata.uid,
    );
    expect(await getLive(client, configMaps, 'stolen', ns)).toBeUndefined();
    const status = await trackStatus(client, track);
    expect(status).toMatchObject({ lastAppliedCommit: good, lastAttemptedCommit: bad });
    expect(status.conditions.find((x) => x.type === 'Parsed')).toMatchObject({ reason: 'ParseFailed' });
    if (c.untouched) expect(server.requests.slice(seen).filter((r) => r.includes(remote.name))).toEqual([]);
  });

  it('renders a remote base when the track allows it (spec.kustomize.allowRemote) and the deployment lists its host', async () => {
    remote ??= remoteRepo();
    const ns = await freshNamespace(client, 'kz-remote');
    const repo = createRepo(server, uniqueName('kz-remote-ok'));
    commit(
      repo,
      {
        'overlay/kustomization.yaml': `namespace: ${ns}\nnamePrefix: x-\nresources:\n  - ${remote.url}//base?ref=main\n`,
      },
      'remote base',
    );
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      subPath: 'overlay',
      kustomize: { allowRemote: true },
    });
    const listed = engine(client, {
      config: { ...includeNamespaced, kustomizeRemoteHosts: [new URL(remote.url).host] },
    });
    try {
      expect(await listed.run(track)).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
    } finally {
      listed.dispose();
    }
    expect((await getLive(client, configMaps, 'x-from-remote', ns))?.data).toEqual({ k: 'v' });
  });
});
