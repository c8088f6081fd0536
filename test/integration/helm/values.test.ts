import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type HelmCapabilities, readHelmCapabilities } from '../../../lib/helm/helmCapabilities';
import type { HelmRelease } from '../../../lib/helm/helmSpec';
import type { ValuesContent } from '../../../lib/helm/readValuesFrom';
import { renderHelmChart } from '../../../lib/helm/renderHelmChart';
import { Discovery } from '../../../lib/kube/discovery';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { kubeClient } from '../../support/cluster';
import { helmOracleBinary, helmTemplate, objectsOf, type RenderedObject } from '../../support/helmOracle';

// spec.helm.valuesFrom, postRender and the double render, through the real engine: the objects
// equal `helm template` given the same values (valuesFrom's contents as -f files in Flux's order),
// a post-render equals the chart's objects with the kustomization's changes made by hand, and a
// chart using randAlphaNum is named with its fields, never its values.

const scratch = mkdtempSync(join(tmpdir(), 'lk-helm-values-'));
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

function writeChart(name: string, files: Record<string, string>): string {
  const root = join(scratch, name);
  const all = {
    'Chart.yaml': `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`,
    'values.yaml': 'replicas: 1\ndb:\n  host: default-host\n  user: default-user\n',
    ...files,
  };
  for (const [path, content] of Object.entries(all)) {
    mkdirSync(join(root, name, path, '..'), { recursive: true });
    writeFileSync(join(root, name, path), content);
  }
  return root;
}

const release = (chart: string, more: Partial<HelmRelease> = {}): HelmRelease => ({
  chart,
  releaseName: chart,
  namespace: 'apps',
  valuesFiles: [],
  values: {},
  valuesFrom: [],
  ...more,
});

async function ours(root: string, r: HelmRelease, valuesFrom: ValuesContent[] = []) {
  const render = await renderHelmChart({
    source: { kind: 'local', dir: root },
    release: r,
    capabilities,
    isUpgrade: false,
    valuesFrom,
  });
  return { render, objects: render.files.flatMap((f) => objectsOf(f.path, f.content)) };
}

const oracle = (root: string, r: HelmRelease, valuesFiles: string[]) =>
  helmTemplate({
    release: r.releaseName,
    chartDir: join(root, r.chart),
    namespace: r.namespace,
    valuesFiles,
    capabilities,
  });

const file = (name: string, content: string) => {
  const at = join(scratch, `${name}-${Math.random().toString(16).slice(2)}.yaml`);
  writeFileSync(at, content);
  return at;
};
const resourcesOf = (objects: RenderedObject[]) => objects.filter((o) => !o.hook);

const valuesChart = {
  'templates/cm.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  values: {{ toJson .Values | quote }}\n',
  'templates/secret.yaml':
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Release.Name }}-db\nstringData:\n  password: {{ .Values.db.password | quote }}\n  user: {{ .Values.db.user | quote }}\n',
  'values-prod.yaml': 'replicas: 2\ndb:\n  host: prod-host\n',
};

describe('spec.helm.valuesFrom', () => {
  it('merges after the values files and before the inline values, as helm template -f in that order', async () => {
    const root = writeChart('vf', valuesChart);
    const cm = 'db:\n  host: cm-host\n  port: 5432\nlist: [a, b]\n';
    const secret = 'db:\n  password: s3cr3t-from-secret\n  user: secret-user\n';
    const inline = { db: { user: 'inline-user' }, extra: true };
    const r = release('vf', { valuesFiles: ['values-prod.yaml'], values: inline });
    const { render, objects } = await ours(root, r, [
      { source: 'ConfigMap apps/cm key values.yaml', secret: false, content: cm },
      { source: 'Secret apps/db key values.yaml', secret: true, content: secret },
      // Flux's targetPath: one value at a path (Helm's --set syntax), over what is merged so far.
      {
        source: 'Secret apps/db key region',
        secret: true,
        targetPath: 'db.region',
        content: 'eu-west-1',
      },
    ]);
    expect(render.errors).toEqual([]);
    const theirs = await oracle(root, r, [
      join(root, 'vf', 'values-prod.yaml'),
      file('cm', cm),
      file('secret', secret),
      file('target', 'db:\n  region: eu-west-1\n'),
      file('inline', stringify(inline)),
    ]);
    expect(objects).toEqual(resourcesOf(theirs));
    const rendered = (objects.find((o) => o.key === 'ConfigMap//vf') as RenderedObject).object as unknown as {
      data: { values: string };
    };
    const values = JSON.parse(rendered.data.values) as Record<string, unknown>;
    expect(values).toMatchObject({
      replicas: 2,
      db: {
        host: 'cm-host',
        port: 5432,
        password: 's3cr3t-from-secret',
        user: 'inline-user',
        region: 'eu-west-1',
      },
    });
  });

  it("never shows a Secret's content in an error: a document that is not values, a chart that quotes it", async () => {
    const root = writeChart('vf-err', {
      ...valuesChart,
      'templates/fail.yaml':
        '{{ if .Values.db.password }}{{ fail (printf "bad password %s" .Values.db.password) }}{{ end }}\n',
    });
    const notValues = await ours(root, release('vf-err'), [
      { source: 'Secret apps/db key values.yaml', secret: true, content: 'hunter2-not-a-map' },
    ]);
    const refused = notValues.render.errors.map((e) => e.message).join();
    expect(refused).toMatch(
      /Secret apps\/db key values.yaml: not a YAML map of values: the Secret's content is refused/,
    );
    expect(refused).not.toContain('hunter2');
    const quoted = await ours(root, release('vf-err'), [
      {
        source: 'Secret apps/db key values.yaml',
        secret: true,
        content: 'db:\n  password: hunter2-quoted\n',
      },
    ]);
    const failed = quoted.render.errors.map((e) => e.message).join();
    expect(failed).toMatch(/bad password <redacted>/);
    expect(failed).not.toContain('hunter2');
    // A ConfigMap's content is no secret: its parse error is the parser's own.
    const fromConfigMap = await ours(root, release('vf-err'), [
      { source: 'ConfigMap apps/cm key values.yaml', secret: false, content: 'plain-text' },
    ]);
    expect(fromConfigMap.render.errors.map((e) => e.message).join()).toMatch(
      /ConfigMap apps\/cm key values.yaml: not a YAML map of values: cannot unmarshal yaml document/,
    );
  });
});

describe('a chart that renders differently each time', () => {
  it('is named with its objects and fields, never the values; a deterministic chart is not', async () => {
    const root = writeChart('rand', {
      'templates/secret.yaml':
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Release.Name }}\n  annotations:\n    rolled-at: {{ now | date "2006-01-02T15:04:05.000000000" | quote }}\nstringData:\n  password: {{ randAlphaNum 24 | quote }}\n  user: admin\n',
      'templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n',
    });
    const { render, objects } = await ours(root, release('rand'));
    expect(render.errors).toEqual([]);
    expect(render.nondeterministic).toEqual([
      {
        path: 'rand/templates/secret.yaml',
        apiVersion: 'v1',
        kind: 'Secret',
        name: 'rand',
        fields: ['/metadata/annotations/rolled-at', '/stringData/password'],
      },
    ]);
    const password = (
      (objects.find((o) => o.key === 'Secret//rand') as RenderedObject).object as unknown as {
        stringData: { password: string };
      }
    ).stringData.password;
    expect(JSON.stringify(render.nondeterministic)).not.toContain(password);
    const steady = await ours(writeChart('steady', valuesChart), release('steady'), []);
    expect(steady.render.nondeterministic).toEqual([]);
  });

  it("names metrics-server's generated certificate (tls.type helm), and nothing of podinfo (random names are its hooks')", async () => {
    const corpus = join(import.meta.dirname, '../../../../shared/corpus/charts');
    const tls = await ours(
      corpus,
      release('metrics-server', { namespace: 'kube-system', valuesFiles: ['ci/tls-helm-values.yaml'] }),
    );
    expect(tls.render.errors).toEqual([]);
    expect(tls.render.nondeterministic.map((v) => `${v.kind}/${v.name} ${v.fields.join(' ')}`)).toEqual([
      'Secret/metrics-server /data/tls.crt /data/tls.key',
      'APIService/v1beta1.metrics.k8s.io /spec/caBundle',
    ]);
    const podinfo = await ours(corpus, release('podinfo'));
    expect(podinfo.render.nondeterministic).toEqual([]);
  });
});

describe('spec.helm.postRender', () => {
  it("applies a kustomization over the chart's objects in memory, each kept under its template", async () => {
    const root = writeChart('post', {
      'templates/deployment.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n  labels:\n    app: web\nspec:\n  replicas: {{ .Values.replicas }}\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n',
      'templates/cm.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-conf\ndata:\n  a: "1"\n',
    });
    const postRender = {
      labels: [{ pairs: { team: 'payments' } }],
      commonAnnotations: { 'example.com/owner': 'payments' },
      images: [{ name: 'nginx', newName: 'registry.example/nginx', newTag: '1.28' }],
      patches: [
        {
          patch: '- op: replace\n  path: /spec/replicas\n  value: 3\n',
          target: { kind: 'Deployment', name: 'post' },
        },
        { patch: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: post-conf\ndata:\n  b: "2"\n' },
      ],
    };
    const r = release('post');
    const { render, objects } = await ours(root, { ...r, postRender });
    expect(render.errors).toEqual([]);
    // The hand-checked expectation: helm template's objects, changed as the kustomization says.
    const expected = resourcesOf(await oracle(root, r, [])).map((o) => {
      const object = structuredClone(o.object) as {
        kind: string;
        metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
        spec?: {
          replicas: bigint;
          template: {
            metadata: { annotations?: Record<string, string> };
            spec: { containers: Array<{ image: string }> };
          };
        };
        data?: Record<string, string>;
      };
      object.metadata.labels = { ...object.metadata.labels, team: 'payments' };
      object.metadata.annotations = { ...object.metadata.annotations, 'example.com/owner': 'payments' };
      if (object.kind === 'Deployment' && object.spec) {
        object.spec.replicas = 3n; // integers read exactly, as the oracle reads them
        object.spec.template.metadata.annotations = { 'example.com/owner': 'payments' };
        (object.spec.template.spec.containers[0] as { image: string }).image = 'registry.example/nginx:1.28';
      }
      if (object.kind === 'ConfigMap') object.data = { ...object.data, b: '2' };
      return { ...o, object };
    });
    expect(objects).toEqual(expected);
  });

  it('fails the render with the reason when a patch matches nothing', async () => {
    const root = writeChart('post-bad', valuesChart);
    const { render } = await ours(root, {
      ...release('post-bad'),
      postRender: {
        patches: [{ patch: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nowhere\ndata: {}\n' }],
      },
    });
    expect(render.files).toEqual([]);
    expect(render.errors.map((e) => e.message).join()).toMatch(/spec\.helm\.postRender: .*nowhere/);
  });
});
