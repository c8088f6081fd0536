import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type HelmCapabilities, readHelmCapabilities } from '../../../lib/helm/helmCapabilities';
import type { HelmRelease } from '../../../lib/helm/helmSpec';
import { type HelmRender, renderHelmChart } from '../../../lib/helm/renderHelmChart';
import { Discovery } from '../../../lib/kube/discovery';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import type { JsonValue, KubeObject } from '../../../lib/manifests';
import { defaultSourceLimits } from '../../../lib/settings/sourceLimits';
import { kubeClient, localControlPlane } from '../../support/cluster';
import { helmOracleBinary, helmTemplate, objectsOf, type RenderedObject } from '../../support/helmOracle';

// Charts are rendered by the real Helm SDK: lightkeeper's objects equal what `helm template` (Helm's
// own CLI at the same release, built apart: infra/build-helm-oracle.sh) prints for the same release,
// namespace, values, kube version and API versions, each under the same template path. The charts
// are the corpus's (../shared/corpus/charts), read where they are.

const charts = join(import.meta.dirname, '../../../../shared/corpus/charts');
const scratch = mkdtempSync(join(tmpdir(), 'lk-helm-oracle-'));
let client: KubeClient;
let capabilities: HelmCapabilities;

beforeAll(async () => {
  client = await kubeClient();
  capabilities = await readHelmCapabilities(client, await new Discovery(client).refresh());
  await helmOracleBinary();
}, 1_800_000);
afterAll(async () => {
  await client?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const release = (chart: string, more: Partial<HelmRelease> = {}): HelmRelease => ({
  chart,
  releaseName: chart,
  namespace: 'apps',
  valuesFiles: [],
  values: {},
  valuesFrom: [],
  ...more,
});

/** lightkeeper's render of a chart under `root`: its objects as the parser reads them, and its hooks. */
async function ours(root: string, r: HelmRelease, isUpgrade = false) {
  const render = await renderHelmChart({
    source: { kind: 'local', dir: root },
    release: r,
    capabilities,
    isUpgrade,
  });
  expect(render.errors.map((e) => e.message)).toEqual([]);
  return { render, objects: render.files.flatMap((f) => objectsOf(f.path, f.content)) };
}

/** `helm template` of the same release: inline values go in as the last values file, as Helm merges them. */
async function oracle(root: string, r: HelmRelease, isUpgrade = false, includeCrds = false) {
  const inline = join(scratch, `inline-${Math.random().toString(16).slice(2)}.yaml`);
  writeFileSync(inline, stringify(r.values));
  return helmTemplate({
    release: r.releaseName,
    chartDir: join(root, r.chart),
    namespace: r.namespace,
    valuesFiles: [...r.valuesFiles.map((f) => join(root, r.chart, f)), inline],
    capabilities,
    isUpgrade,
    includeCrds,
  });
}

const byKey = (objects: RenderedObject[]) => new Map(objects.map((o) => [o.key, o]));

// What these charts generate at random on every render, in lightkeeper as in `helm template`:
// podinfo's test hook names (`randAlphaNum 5`) and metrics-server's self-signed certificate
// (`genCA`, `genSignedCert`, with `tls.type: helm`). Compared for presence, not value.
const randomSuffix = (name: string) => name.replace(/-[a-z0-9]{5}$/, '-<random>');
const generatedTls = new Set(['tls.crt', 'tls.key', 'ca.crt']);
function withoutGenerated(object: JsonValue): JsonValue {
  const o = structuredClone(object) as KubeObject & {
    data?: Record<string, string>;
    spec?: { caBundle?: string };
  };
  if (o.kind === 'Secret' && o.data)
    for (const k of Object.keys(o.data)) if (generatedTls.has(k)) o.data[k] = '<generated>';
  if (o.kind === 'APIService' && o.spec?.caBundle) o.spec.caBundle = '<generated>';
  return o as JsonValue;
}

function expectSameRender(render: HelmRender, mine: RenderedObject[], theirs: RenderedObject[]) {
  const resources = byKey(theirs.filter((o) => !o.hook));
  expect([...byKey(mine).keys()].sort()).toEqual([...resources.keys()].sort());
  for (const o of mine) {
    expect(withoutGenerated(o.object), o.key).toEqual(withoutGenerated(resources.get(o.key)?.object ?? null));
    expect(o.source, o.key).toBe(resources.get(o.key)?.source);
  }
  // Hooks are left out of the objects and named: the same ones `helm template` prints, same templates.
  const hooks = theirs
    .filter((o) => o.hook)
    .map((o) => `${o.key.split('/')[0]}/${randomSuffix(o.key.split('/')[2] ?? '')} ${o.source}`);
  expect(render.hooks.map((h) => `${randomSuffix(h.subject)} ${h.path}`).sort()).toEqual(hooks.sort());
}

describe('a chart rendered by lightkeeper', () => {
  it.skipIf(!localControlPlane())('sees the local control plane as the Kubernetes release it is', () => {
    // The corpus charts say kubeVersion ">=1.23.0-0": an unstamped v0.0.0 server would fail them.
    expect(capabilities.kubeVersion).toBe('v1.37.2');
    expect(capabilities.apiVersions).toEqual(
      expect.arrayContaining(['apps/v1', 'apps/v1/Deployment', 'v1', 'v1/Pod']),
    );
  });

  const cases: Array<[string, Partial<HelmRelease>]> = [
    ['podinfo', {}],
    ['podinfo', { valuesFiles: ['values-prod.yaml'] }],
    [
      'podinfo',
      {
        valuesFiles: ['values-prod.yaml'],
        values: { replicaCount: 3, ui: { message: 'inline' } },
        releaseName: 'web',
      },
    ],
    ...readdirSync(join(charts, 'metrics-server', 'ci')).map((f): [string, Partial<HelmRelease>] => [
      'metrics-server',
      { valuesFiles: [`ci/${f}`], namespace: 'kube-system' },
    ]),
  ];
  it.each(cases)('%s %j: the objects helm template prints, under the same templates', async (chart, more) => {
    const r = release(chart, more);
    const { render, objects } = await ours(charts, r);
    expect(objects.length).toBeGreaterThan(1);
    expectSameRender(render, objects, await oracle(charts, r));
  });

  it('says IsUpgrade when asked, as helm template --is-upgrade does', async () => {
    const root = join(scratch, 'upgrade');
    writeChart(root, 'up', {
      'templates/cm.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  install: {{ .Release.IsInstall | quote }}\n  upgrade: {{ .Release.IsUpgrade | quote }}\n  kube: {{ .Capabilities.KubeVersion.Version | quote }}\n',
    });
    for (const isUpgrade of [false, true]) {
      const { render, objects } = await ours(root, release('up'), isUpgrade);
      expectSameRender(render, objects, await oracle(root, release('up'), isUpgrade));
      expect(objects[0]?.object).toMatchObject({
        data: { upgrade: String(isUpgrade), kube: capabilities.kubeVersion },
      });
    }
  });
});

describe("a chart's crds/", () => {
  it('are among its objects, as helm template --include-crds prints them, marked never to be pruned', async () => {
    const root = join(scratch, 'crds');
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        names: { kind: 'Widget', plural: 'widgets', singular: 'widget' },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    };
    writeChart(root, 'widgets', {
      'crds/widget.yaml': stringify(crd),
      'templates/widget.yaml':
        'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: {{ .Release.Name }}\n',
    });
    const { render, objects } = await ours(root, release('widgets'));
    expect(objects.map((o) => `${o.source} ${o.key}`)).toEqual([
      'widgets/crds/widget.yaml CustomResourceDefinition//widgets.example.com',
      'widgets/templates/widget.yaml Widget//widgets',
    ]);
    // Helm never deletes a chart's CRDs (that deletes every Widget): lightkeeper orphans them instead.
    const [definition] = objects;
    expect(definition?.object).toMatchObject({
      metadata: { annotations: { 'lightkeeper.dev/prune': 'disabled' } },
    });
    const object = structuredClone(definition?.object) as KubeObject;
    delete object.metadata.annotations;
    const unmarked = { ...(definition as RenderedObject), object: object as JsonValue };
    expectSameRender(
      render,
      [unmarked, ...objects.slice(1)],
      await oracle(root, release('widgets'), false, true),
    );
  });
});

describe('a chart reads only its own files', () => {
  it('refuses a template that is a symlink out of the chart', async () => {
    const root = join(scratch, 'symlink-out');
    writeChart(root, 'leaky', {});
    writeFileSync(join(root, 'outside.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: stolen\n');
    symlinkSync('../../outside.yaml', join(root, 'leaky', 'templates', 'stolen.yaml'));
    const render = await renderHelmChart({
      source: { kind: 'local', dir: root },
      release: release('leaky'),
      capabilities,
      isUpgrade: false,
    });
    expect(render.files).toEqual([]);
    expect(render.errors.map((e) => e.message).join()).toMatch(
      /templates\/stolen\.yaml leads outside the chart/,
    );
  });

  it('follows a symlink inside the chart, as Helm does', async () => {
    const root = join(scratch, 'symlink-in');
    writeChart(root, 'linked', {
      'shared/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: linked\n',
    });
    symlinkSync('../shared/cm.yaml', join(root, 'linked', 'templates', 'cm.yaml'));
    const { render, objects } = await ours(root, release('linked'));
    expect(objects.map((o) => o.key)).toEqual(['ConfigMap//linked']);
    expectSameRender(render, objects, await oracle(root, release('linked')));
  });

  it('refuses a values file outside the chart', async () => {
    const root = join(scratch, 'values-out');
    writeChart(root, 'vals', {});
    writeFileSync(join(root, 'values.yaml'), 'secret: 1\n');
    const render = await renderHelmChart({
      source: { kind: 'local', dir: root },
      release: release('vals', { valuesFiles: ['../values.yaml'] }),
      capabilities,
      isUpgrade: false,
    });
    expect(render.errors.map((e) => e.message).join()).toMatch(
      /values file \.\.\/values\.yaml: a values file is a path inside the chart/,
    );
  });

  it('gives .Files.Get of a path outside the chart nothing', async () => {
    const root = join(scratch, 'files-get');
    writeChart(root, 'peek', {
      'templates/cm.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: peek\ndata:\n  outside: {{ .Files.Get "../secret.txt" | quote }}\n  inside: {{ .Files.Get "files/own.txt" | quote }}\n',
      'files/own.txt': 'own',
    });
    writeFileSync(join(root, 'secret.txt'), 'do not read');
    const { objects } = await ours(root, release('peek'));
    expect(objects[0]?.object).toMatchObject({ data: { outside: '', inside: 'own' } });
  });
});

describe('a chart or release a tenant controls is bounded', () => {
  const render = (root: string, r: HelmRelease, render = { timeoutMs: 60_000, maxOutputBytes: 1 << 20 }) =>
    renderHelmChart({
      source: { kind: 'local', dir: root },
      release: r,
      capabilities,
      isUpgrade: false,
      limits: { ...defaultSourceLimits, render },
    });

  it('stops a chart whose output grows past the cap, and one that renders past the time cap', async () => {
    const root = join(scratch, 'huge');
    writeChart(root, 'huge', {
      'templates/cm.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: huge\ndata:\n{{- range $i := until 200000 }}\n  k{{ $i }}: "{{ repeat 64 "x" }}"\n{{- end }}\n',
    });
    const big = await render(root, release('huge'), { timeoutMs: 60_000, maxOutputBytes: 64 * 1024 });
    expect(big.files).toEqual([]);
    expect(big.errors.map((e) => e.message).join()).toMatch(/printed more than 65536 bytes and was stopped/);
    const slow = await render(root, release('huge'), { timeoutMs: 50, maxOutputBytes: 1 << 30 });
    expect(slow.files).toEqual([]);
    expect(slow.errors.map((e) => e.message).join()).toMatch(/took longer than 0\.05 s and was stopped/);
  });

  it('refuses a release name Helm would refuse, rendering nothing', async () => {
    const root = join(scratch, 'bad-name');
    writeChart(root, 'named', {
      'templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n',
    });
    const bad = await render(root, release('named', { releaseName: 'Bad\nName/../x' }));
    expect(bad.files).toEqual([]);
    expect(bad.errors.map((e) => e.message).join()).toMatch(/helm render failed: .*release name/i);
  });
});

/** A chart `name` under `root` with the given files (Chart.yaml and an empty values.yaml added). */
function writeChart(root: string, name: string, files: Record<string, string>) {
  const all = {
    'Chart.yaml': `apiVersion: v2\nname: ${name}\nversion: 0.1.0\nkubeVersion: ">=1.23.0-0"\n`,
    'values.yaml': '{}\n',
    ...files,
  };
  for (const [path, content] of Object.entries(all)) {
    const at = join(root, name, path);
    mkdirSync(join(at, '..'), { recursive: true });
    writeFileSync(at, content);
  }
  mkdirSync(join(root, name, 'templates'), { recursive: true });
}
