import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureControlPlaneBinaries } from '../../../lib/controlplane/binaries';
import { fetchCommit } from '../../../lib/git';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { renderKustomization } from '../../../lib/kustomize/renderKustomization';
import { commit, createRepo, type TestRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { type JsonValue, jsonText, parseManifests } from '../../../lib/manifests';
import type { KubeObject } from '../../../lib/manifests/KubeObject';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMaps, createGitTrack, getLive } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { exactJson, kubectlLocal } from '../../support/kubectlOracle';
import { kustomizeFixture } from '../../support/kustomizeFixture';

// Overlays are rendered by the real kustomize engine and applied like files: the objects equal what
// the project's own `kubectl kustomize` prints, each tracking object names the file its object came
// from, and a generator change rolls the Deployment before the old ConfigMap is pruned.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));
const scratch = mkdtempSync(join(tmpdir(), 'lk-kustomize-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const run = promisify(execFile);

type Keyed = Map<string, JsonValue>;
const key = (o: JsonValue) => {
  const { kind, metadata } = o as KubeObject;
  return `${kind}/${metadata.namespace ?? ''}/${metadata.name}`;
};
const keyed = (objects: JsonValue[]): Keyed => new Map(objects.map((o) => [key(o), o]));

/** `kubectl kustomize DIR`, read as kubectl reads a file (no server involved). */
async function kubectlKustomize(dir: string): Promise<Keyed> {
  const kubectl = join(await ensureControlPlaneBinaries(), 'kubectl');
  const { stdout } = await run(kubectl, ['kustomize', dir], { maxBuffer: 64 * 1024 * 1024 });
  const file = join(scratch, `${uniqueName('built')}.yaml`);
  writeFileSync(file, stdout);
  const decoded = await kubectlLocal(kubectl, file);
  if (!decoded.ok) throw new Error(decoded.message);
  return keyed(decoded.objects);
}

/** What lightkeeper sends for the track's commit: its render, then its parse, as the reconcile does. */
async function lightkeeperObjects(repo: TestRepo, subPath: string) {
  const fetched = await fetchCommit({ url: repo.url, reference: 'main', cacheRoot: scratch });
  const render = await renderKustomization({ source: { kind: 'commit', ...fetched }, subPath });
  expect(render?.errors).toEqual([]);
  const parsed = parseManifests(render?.files ?? []);
  expect(parsed.errors).toEqual([]);
  return {
    objects: keyed(parsed.manifests.map((m) => exactJson(jsonText(m.object))[0] as JsonValue)),
    sources: new Map(parsed.manifests.map((m) => [key(m.object), m.source.path])),
  };
}

interface Tracker {
  spec: { target: { kind: string; name: string }; source: { path: string } };
}
const trackedSources = async (ns: string) => {
  const list = await client.request<{ items: Tracker[] }>(
    'GET',
    resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }),
  );
  return new Map(
    list.items.map((t) => [`${t.spec.target.kind}/${ns}/${t.spec.target.name}`, t.spec.source.path]),
  );
};

/** Every field of `expected` is in `live` (the server only adds defaults and metadata). */
function contains(live: unknown, expected: unknown): boolean {
  if (Array.isArray(expected))
    return (
      Array.isArray(live) && live.length === expected.length && expected.every((x, i) => contains(live[i], x))
    );
  if (expected !== null && typeof expected === 'object')
    return (
      live !== null &&
      typeof live === 'object' &&
      Object.entries(expected).every(([k, v]) => contains((live as Record<string, unknown>)[k], v))
    );
  return String(live) === String(expected);
}

describe('a kustomize overlay', () => {
  it.each(['prod', 'staging'])(
    'overlays/%s: lightkeeper applies what kubectl kustomize prints, each object under its source file',
    async (overlay) => {
      const ns = await freshNamespace(client, `kz-${overlay}`);
      const repo = createRepo(server, uniqueName(`kz-${overlay}`));
      commit(repo, kustomizeFixture(ns), 'base, component and two overlays');
      const subPath = `overlays/${overlay}`;

      const oracle = await kubectlKustomize(join(repo.dir, subPath));
      const ours = await lightkeeperObjects(repo, subPath);
      expect([...ours.objects.keys()].sort()).toEqual([...oracle.keys()].sort());
      for (const [k, object] of oracle) expect(ours.objects.get(k), k).toEqual(object);

      const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main', subPath });
      const summary = await e.run(track);
      expect(summary).toMatchObject({ result: 'Succeeded', counts: { applied: oracle.size } });
      for (const [k, object] of oracle) {
        const { kind, metadata } = object as KubeObject;
        const plural = { ConfigMap: 'configmaps', Service: 'services', Deployment: 'deployments' }[
          kind
        ] as string;
        const apiVersion = (object as KubeObject).apiVersion;
        const live = await getLive(client, { apiVersion, plural }, metadata.name, ns);
        expect(contains(live, object), `${k} live ⊇ kubectl kustomize`).toBe(true);
      }
      // source.path names the file in the repository each object came from.
      const sources = await trackedSources(ns);
      expect(sources).toEqual(ours.sources);
      expect(sources.get(`Deployment/${ns}/${overlay}-web`)).toBe('base/deployment.yaml');
      expect(sources.get(`Service/${ns}/${overlay}-web`)).toBe('base/service.yaml');
      const generated = [...sources].find(([k]) => k.startsWith(`ConfigMap/${ns}/${overlay}-web-config-`));
      expect(generated?.[1]).toBe('base/kustomization.yaml');
      if (overlay === 'prod')
        expect(sources.get(`ConfigMap/${ns}/prod-scrape-targets`)).toBe(
          'components/monitoring/service-monitor-config.yaml',
        );
    },
  );

  it('rolls a generator change out: new ConfigMap and Deployment first, the old ConfigMap pruned after', async () => {
    const ns = await freshNamespace(client, 'kz-roll');
    const repo = createRepo(server, uniqueName('kz-roll'));
    commit(repo, kustomizeFixture(ns), 'fixture');
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      subPath: 'overlays/prod',
    });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded' });
    const configName = async () => {
      const deployment = await getLive(
        client,
        { apiVersion: 'apps/v1', plural: 'deployments' },
        'prod-web',
        ns,
      );
      const spec = deployment?.spec as {
        template: { spec: { containers: Array<{ envFrom: Array<{ configMapRef: { name: string } }> }> } };
      };
      return spec.template.spec.containers[0]?.envFrom[0]?.configMapRef.name as string;
    };
    const before = await configName();
    expect(before).toMatch(/^prod-web-config-[a-z0-9]{10}$/);

    // A generator change the API server accepts, with a Deployment it refuses: the new ConfigMap is
    // applied, the Deployment is not, so the old ConfigMap (still in use) must stay.
    commit(
      repo,
      {
        'base/config/app.properties': 'greeting=bonjour\nworkers=4\n',
        'overlays/prod/replicas.yaml': kustomizeFixture(ns)['overlays/prod/replicas.yaml']?.replace(
          'replicas: 3',
          'replicas: -1',
        ) as string,
      },
      'new greeting, bad replicas',
    );
    const refused = await e.run(track);
    expect(refused.result).toBe('Failed');
    expect(refused.counts.pruned).toBe(0);
    expect(await getLive(client, configMaps, before, ns)).toBeDefined();
    expect(await configName()).toBe(before);

    commit(
      repo,
      { 'overlays/prod/replicas.yaml': kustomizeFixture(ns)['overlays/prod/replicas.yaml'] as string },
      'fix replicas',
    );
    const rolled = await e.run(track);
    expect(rolled).toMatchObject({ result: 'Succeeded', counts: { pruned: 1 } });
    const after = await configName();
    expect(after).not.toBe(before);
    expect(after).toMatch(/^prod-web-config-[a-z0-9]{10}$/);
    expect((await getLive(client, configMaps, after, ns))?.data).toMatchObject({
      'app.properties': 'greeting=bonjour\nworkers=4\n',
    });
    expect(await getLive(client, configMaps, before, ns)).toBeUndefined();
    // The prune comes after every apply of the run.
    const subjects = rolled.changes.map((c) => `${c.action} ${c.subject}`);
    const pruneAt = subjects.findIndex((s) => s.includes(before));
    expect(rolled.changes[pruneAt]?.action).toBe('deleted');
    expect(subjects.slice(pruneAt + 1).every((s) => s.startsWith('deleted'))).toBe(true);
    expect(subjects.findIndex((s) => s.includes('Deployment'))).toBeLessThan(pruneAt);
  });
});
