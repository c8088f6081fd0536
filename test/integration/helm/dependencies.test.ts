import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HelmCapabilities, readHelmCapabilities } from '../../../lib/helm/helmCapabilities';
import type { HelmRelease } from '../../../lib/helm/helmSpec';
import { renderHelmChart } from '../../../lib/helm/renderHelmChart';
import { Discovery } from '../../../lib/kube/discovery';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import type { RemoteAccess } from '../../../lib/kustomize/remoteAccess';
import { helmSource } from '../../../lib/reconcile/helmSource';
import type { TrackObject } from '../../../lib/track/trackObject';
import { type ChartRepository, helmCli, serveChartRepository } from '../../support/chartRepository';
import { kubeClient } from '../../support/cluster';
import { helmTemplate, objectsOf, type RenderedObject } from '../../support/helmOracle';
import { serveOciRegistry } from '../../support/ociRegistry';

// A chart's subcharts: vendored in charts/ (as `helm dependency update` leaves them: a .tgz and
// Chart.lock, or unpacked) they render with no network, as `helm template` renders them; missing,
// they are fetched from their HTTP chart repository only where the remote-host rule of kustomize
// bases allows, checked against Chart.lock and the index's digest. The repository is served on
// loopback from charts Helm's own CLI packaged and indexed.

const scratch = mkdtempSync(join(tmpdir(), 'lk-helm-deps-'));
let client: KubeClient;
let capabilities: HelmCapabilities;
let repository: ChartRepository;
/** The parent chart as `helm dependency update` left it: Chart.lock and charts/child-0.1.0.tgz. */
let vendored: string;

const write = (root: string, files: Record<string, string>) => {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
};

beforeAll(async () => {
  client = await kubeClient();
  capabilities = await readHelmCapabilities(client, await new Discovery(client).refresh());
  const served = join(scratch, 'served');
  mkdirSync(served);
  repository = await serveChartRepository(served);
  write(join(scratch, 'src', 'child'), {
    'Chart.yaml': 'apiVersion: v2\nname: child\nversion: 0.1.0\n',
    'values.yaml': 'greeting: hello\n',
    'templates/cm.yaml':
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-child\ndata:\n  greeting: {{ .Values.greeting | quote }}\n  shared: {{ .Values.global.shared | default "none" | quote }}\n',
  });
  await helmCli(['package', join(scratch, 'src', 'child'), '--destination', served]);
  await helmCli(['repo', 'index', served]);
  vendored = join(scratch, 'vendored');
  write(join(vendored, 'parent'), {
    'Chart.yaml': `apiVersion: v2\nname: parent\nversion: 1.0.0\ndependencies:\n  - name: child\n    version: 0.1.0\n    repository: ${repository.url}\n`,
    'values.yaml': 'child:\n  greeting: from-parent\nglobal:\n  shared: yes-please\n',
    'templates/own.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-own\n',
  });
  await helmCli(['dependency', 'update', join(vendored, 'parent')]);
}, 1_800_000);

afterAll(async () => {
  await client?.close();
  await repository?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const release: HelmRelease = {
  chart: 'parent',
  releaseName: 'shop',
  namespace: 'apps',
  valuesFiles: [],
  values: {},
  valuesFrom: [],
};

const render = (root: string, remote?: RemoteAccess) =>
  renderHelmChart({ source: { kind: 'local', dir: root }, release, capabilities, isUpgrade: false, remote });

/** A copy of the vendored parent under a new root, changed by `change`. */
function variant(name: string, change: (chart: string) => void): string {
  const root = join(scratch, name);
  cpSync(vendored, root, { recursive: true });
  change(join(root, 'parent'));
  return root;
}

/** The objects equal `helm template` of the parent chart under `root` (its charts/ vendored). */
async function expectHelmTemplate(root: string, objects: RenderedObject[]) {
  const theirs = await helmTemplate({
    release: release.releaseName,
    chartDir: join(root, 'parent'),
    namespace: release.namespace,
    valuesFiles: [],
    capabilities,
  });
  const key = (o: RenderedObject) => `${o.source} ${o.key} ${JSON.stringify(o.object)}`;
  expect(objects.map(key).sort()).toEqual(theirs.map(key).sort());
}

const objectsOfRender = (files: Array<{ path: string; content: string | Uint8Array }>) =>
  files.flatMap((f) => objectsOf(f.path, f.content));

describe('a vendored subchart', () => {
  it('in charts/ as a .tgz with Chart.lock renders with no network, as helm template renders it', async () => {
    const before = repository.requests.length;
    const ours = await render(vendored);
    expect(ours.errors.map((e) => e.message)).toEqual([]);
    const objects = objectsOfRender(ours.files);
    expect(objects.map((o) => `${o.source} ${o.key}`).sort()).toEqual([
      'parent/charts/child/templates/cm.yaml ConfigMap//shop-child',
      'parent/templates/own.yaml ConfigMap//shop-own',
    ]);
    // The parent's values reach the subchart, globals included.
    expect(objects.find((o) => o.key === 'ConfigMap//shop-child')?.object).toMatchObject({
      data: { greeting: 'from-parent', shared: 'yes-please' },
    });
    await expectHelmTemplate(vendored, objects);
    expect(repository.requests.length).toBe(before);
  });

  it('unpacked in charts/child renders the same', async () => {
    const root = variant('unpacked', (chart) => {
      cpSync(join(scratch, 'src', 'child'), join(chart, 'charts', 'child'), { recursive: true });
      rmSync(join(chart, 'charts', 'child-0.1.0.tgz'));
    });
    const ours = await render(root);
    expect(ours.errors.map((e) => e.message)).toEqual([]);
    await expectHelmTemplate(root, objectsOfRender(ours.files));
  });

  it('missing from charts/, with a repository that is not a chart repository, breaks the render as helm template does', async () => {
    const root = variant('file-dep', (chart) => {
      rmSync(join(chart, 'charts'), { recursive: true });
      rmSync(join(chart, 'Chart.lock'));
      const yaml = readFileSync(join(chart, 'Chart.yaml'), 'utf8');
      writeFileSync(join(chart, 'Chart.yaml'), yaml.replace(repository.url, 'file://../../src/child'));
    });
    const ours = await render(root, { kind: 'publicOrListed', hosts: [repository.host] });
    expect(ours.files).toEqual([]);
    expect(ours.errors.map((e) => e.message).join()).toMatch(
      /found in Chart.yaml, but missing in charts\/ directory: child .*must be vendored/,
    );
  });
});

/** The vendored parent without its charts/: Chart.lock says what to fetch. */
const unvendored = (name: string, change: (chart: string) => void = () => {}) =>
  variant(name, (chart) => {
    rmSync(join(chart, 'charts'), { recursive: true });
    change(chart);
  });

describe('a dependency fetched from an HTTP chart repository', () => {
  it('is fetched from an allow-listed host, checked, and renders as the vendored chart; then kept for the process', async () => {
    const root = unvendored('remote');
    const before = repository.requests.length;
    const ours = await render(root, { kind: 'allowListed', hosts: [repository.host] });
    expect(ours.errors.map((e) => e.message)).toEqual([]);
    await expectHelmTemplate(vendored, objectsOfRender(ours.files));
    expect(repository.requests.slice(before)).toEqual(['/index.yaml', '/child-0.1.0.tgz']);

    // A warm process fetches the locked version once: the next render (another commit) asks nothing.
    const again = await render(unvendored('remote-again'), { kind: 'allowListed', hosts: [repository.host] });
    expect(again.errors.map((e) => e.message)).toEqual([]);
    expect(again.files).toEqual(ours.files);
    expect(repository.requests.length).toBe(before + 2);
  });

  it.each<[string, RemoteAccess | undefined, RegExp]>([
    [
      'no remote access',
      undefined,
      /remote charts are not allowed for this track \(spec\.helm\.allowRemote\)/,
    ],
    [
      'a host not on the allow-list',
      { kind: 'allowListed', hosts: ['charts.example.com'] },
      /remote host 127\.0\.0\.1 is not on the deployment's allow-list \(LIGHTKEEPER_KUSTOMIZE_REMOTE_HOSTS\)/,
    ],
    [
      'public hosts only (a ClusterGitTrack) and a loopback repository',
      { kind: 'publicOrListed', hosts: [] },
      /remote host 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address/,
    ],
  ])('is refused with %s, naming the host, even when fetched before', async (_, access, reason) => {
    const before = repository.requests.length;
    const refused = await render(unvendored('refused'), access);
    expect(refused.files).toEqual([]);
    const message = refused.errors.map((e) => e.message).join();
    expect(message).toMatch(/^parent\/Chart\.yaml: helm render failed: chart dependency child/);
    expect(message).toContain('127.0.0.1');
    expect(message).toMatch(reason);
    expect(repository.requests.length).toBe(before);
  });

  it('is refused when Chart.lock does not match Chart.yaml', async () => {
    const root = unvendored('stale-lock', (chart) => {
      const yaml = readFileSync(join(chart, 'Chart.yaml'), 'utf8');
      writeFileSync(join(chart, 'Chart.yaml'), yaml.replace('version: 0.1.0', 'version: ~0.1.0'));
    });
    const stale = await render(root, { kind: 'allowListed', hosts: [repository.host] });
    expect(stale.files).toEqual([]);
    expect(stale.errors.map((e) => e.message).join()).toMatch(/Chart\.lock is out of sync with Chart\.yaml/);
  });

  it("is refused when the archive is not the one the repository's index names", async () => {
    // Another repository, the parent locked against it; then its archive is replaced, the index kept.
    const served = join(scratch, 'tampered');
    cpSync(join(scratch, 'served'), served, { recursive: true });
    const tampered = await serveChartRepository(served);
    try {
      const root = join(scratch, 'tampered-parent');
      cpSync(join(vendored, 'parent', 'Chart.yaml'), join(root, 'parent', 'Chart.yaml'));
      const yaml = readFileSync(join(root, 'parent', 'Chart.yaml'), 'utf8');
      writeFileSync(join(root, 'parent', 'Chart.yaml'), yaml.replace(repository.url, tampered.url));
      await helmCli(['dependency', 'update', join(root, 'parent')]);
      rmSync(join(root, 'parent', 'charts'), { recursive: true });
      const child = join(scratch, 'src', 'child-tampered');
      cpSync(join(scratch, 'src', 'child'), child, { recursive: true });
      writeFileSync(join(child, 'values.yaml'), 'greeting: tampered\n');
      await helmCli(['package', child, '--destination', served]);
      const bad = await render(root, { kind: 'allowListed', hosts: [tampered.host] });
      expect(bad.files).toEqual([]);
      expect(bad.errors.map((e) => e.message).join()).toMatch(
        /child-0\.1\.0\.tgz: its sha256 digest [0-9a-f]{64} is not the repository index's [0-9a-f]{64}/,
      );
    } finally {
      await tampered.close();
    }
  });
});

describe("a track's spec.helm.allowRemote", () => {
  const track = (kind: TrackObject['kind'], allowRemote: boolean): TrackObject => ({
    apiVersion: 'lightkeeper.dev/v1alpha1',
    kind,
    metadata: { name: 'shop', uid: 'u', ...(kind === 'GitTrack' ? { namespace: 'apps' } : {}) },
    spec: {
      repository: 'https://git.example.com/shop.git',
      reference: 'main',
      subPath: 'parent',
      defaultNamespace: 'apps',
      helm: { allowRemote },
    },
  });
  const source = (name: string) => ({ kind: 'local', dir: unvendored(name) }) as const;
  const sourced = (t: TrackObject, name: string, hosts: string[]) =>
    helmSource(t, source(name), capabilities, undefined, { client }, { remoteHosts: hosts });

  it('lets a GitTrack fetch from the hosts the deployment lists, and from nowhere else', async () => {
    const listed = await sourced(track('GitTrack', true), 'track-listed', [repository.host]);
    expect(listed.errors).toEqual([]);
    expect(listed.manifests.map((m) => m.object.metadata.name).sort()).toEqual(['shop-child', 'shop-own']);
    // Without allowRemote the deployment's list is not enough; without the list, neither is allowRemote.
    const off = await sourced(track('GitTrack', false), 'track-off', [repository.host]);
    expect(off.errors.join()).toMatch(/child from 127\.0\.0\.1:\d+: remote charts are not allowed/);
    const unlisted = await sourced(track('GitTrack', true), 'track-unlisted', []);
    expect(unlisted.errors.join()).toMatch(/remote host 127\.0\.0\.1 is not on the deployment's allow-list/);
  });

  it('lets a ClusterGitTrack reach public hosts too, never a loopback one it was not given', async () => {
    const cluster = await sourced(track('ClusterGitTrack', true), 'cluster-unlisted', []);
    expect(cluster.errors.join()).toMatch(/resolves to 127\.0\.0\.1, a loopback address/);
  });
});

describe('a dependency pulled from an OCI registry', () => {
  it("is pulled by Helm's registry client from an allow-listed host (a version or a range), and refused elsewhere", async () => {
    const registry = await serveOciRegistry();
    try {
      await helmCli([
        'push',
        join(scratch, 'served', 'child-0.1.0.tgz'),
        `oci://${registry.host}/charts`,
        '--plain-http',
      ]);
      for (const [name, version] of [
        ['oci-exact', '0.1.0'],
        ['oci-range', '~0.1.0'],
      ] as const) {
        const root = unvendored(name, (chart) => {
          rmSync(join(chart, 'Chart.lock'));
          const yaml = readFileSync(join(chart, 'Chart.yaml'), 'utf8');
          writeFileSync(
            join(chart, 'Chart.yaml'),
            yaml
              .replace(repository.url, `oci://${registry.host}/charts`)
              .replace('version: 0.1.0', `version: ${version}`),
          );
        });
        const ours = await render(root, { kind: 'allowListed', hosts: [registry.host] });
        expect(
          ours.errors.map((e) => e.message),
          version,
        ).toEqual([]);
        await expectHelmTemplate(vendored, objectsOfRender(ours.files));
      }
      expect(registry.requests).toContain('GET /v2/charts/child/tags/list');
      const refused = await render(
        unvendored('oci-refused', (chart) => {
          rmSync(join(chart, 'Chart.lock'));
          const yaml = readFileSync(join(chart, 'Chart.yaml'), 'utf8');
          writeFileSync(
            join(chart, 'Chart.yaml'),
            yaml.replace(repository.url, `oci://${registry.host}/charts`),
          );
        }),
        { kind: 'allowListed', hosts: ['registry.example.com'] },
      );
      expect(refused.files).toEqual([]);
      expect(refused.errors.map((e) => e.message).join()).toMatch(
        /chart dependency child: remote refused: remote host 127\.0\.0\.1 is not on the deployment's allow-list/,
      );
    } finally {
      await registry.close();
    }
  });
});
