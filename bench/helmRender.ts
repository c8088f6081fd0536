// `npm run bench:render`: the render time of a Helm chart by lightkeeper (helm-render, as a reconcile
// runs it) next to `helm template`'s (Helm's own CLI at the same release, the chart tests' oracle),
// for the corpus's podinfo and a generated chart of 200 objects, cold and warm, in one run:
// - lightkeeper cold: a fresh Node process (the bundle a Lambda runs) rendering its first chart;
//   "process" adds the Node start and the bundle's load. Warm: the median of the next renders in
//   that process (each a new release name, so none comes from the process's render cache).
// - helm template: every run is a fresh process; cold is the first, warm the median of the rest.
// Each render includes writing the chart out of git, the engine and parsing its output; the same
// kube version and API versions are given to both. Ratios: helm template's time over lightkeeper's.
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { kustomizeBinary } from '../lib/kustomize/kustomizeBinary';
import { helmOracleBinary } from '../test/support/helmOracle';
import { bundleBenchScript } from './bundleChild';
import type { RenderChildArgs, RenderChildResult } from './helmRenderChild';

const run = promisify(execFile);
const podinfo = fileURLToPath(new URL('../../shared/corpus/charts/podinfo', import.meta.url));
const kubeVersion = 'v1.37.2';
const apiVersions = [
  'v1',
  'apps/v1',
  'batch/v1',
  'networking.k8s.io/v1',
  'policy/v1',
  'autoscaling/v2',
  'rbac.authorization.k8s.io/v1',
  'v1/ConfigMap',
  'v1/Secret',
  'v1/Service',
  'v1/ServiceAccount',
  'apps/v1/Deployment',
];

/** A chart of 40 templates, each five objects (ConfigMap, Secret, ServiceAccount, Service, Deployment) through shared helpers. */
export function generatedChart(templates = 40): Record<string, string> {
  const files: Record<string, string> = {
    'Chart.yaml': 'apiVersion: v2\nname: gen\nversion: 1.0.0\nkubeVersion: ">=1.23.0-0"\n',
    'values.yaml': 'image: nginx:1.27\nreplicas: 1\nport: 8080\nlabels:\n  team: bench\n',
    'templates/_helpers.tpl': [
      '{{- define "gen.labels" -}}',
      'app.kubernetes.io/name: {{ .name }}',
      'app.kubernetes.io/instance: {{ .root.Release.Name }}',
      'helm.sh/chart: {{ .root.Chart.Name }}-{{ .root.Chart.Version }}',
      '{{- range $k, $v := .root.Values.labels }}',
      '{{ $k }}: {{ $v | quote }}',
      '{{- end }}',
      '{{- end }}',
      '',
    ].join('\n'),
  };
  for (let i = 0; i < templates; i++) {
    const name = `{{ .Release.Name }}-app-${i}`;
    const ctx = `(dict "name" "app-${i}" "root" $)`;
    files[`templates/app-${i}.yaml`] = `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  labels:
    {{- include "gen.labels" ${ctx} | nindent 4 }}
data:
  index: "${i}"
  settings.json: {{ dict "port" .Values.port "app" ${i} | toJson | quote }}
---
apiVersion: v1
kind: Secret
metadata:
  name: ${name}
  labels:
    {{- include "gen.labels" ${ctx} | nindent 4 }}
stringData:
  token: {{ printf "token-%d-%s" ${i} .Release.Name | b64enc | quote }}
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: ${name}
  labels:
    {{- include "gen.labels" ${ctx} | nindent 4 }}
---
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  labels:
    {{- include "gen.labels" ${ctx} | nindent 4 }}
spec:
  selector:
    app.kubernetes.io/name: app-${i}
  ports:
    - port: 80
      targetPort: {{ .Values.port }}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels:
    {{- include "gen.labels" ${ctx} | nindent 4 }}
spec:
  replicas: {{ .Values.replicas }}
  selector:
    matchLabels:
      app.kubernetes.io/name: app-${i}
  template:
    metadata:
      labels:
        {{- include "gen.labels" ${ctx} | nindent 8 }}
    spec:
      serviceAccountName: ${name}
      containers:
        - name: app
          image: {{ .Values.image }}
          ports:
            - containerPort: {{ .Values.port }}
          envFrom:
            - configMapRef:
                name: ${name}
`;
  }
  return files;
}

export interface ChartTimes {
  chart: string;
  objects: number;
  lightkeeper: { coldProcessMs: number; coldMs: number; warmMs: number; warmParseMs: number };
  helmTemplate: { coldMs: number; warmMs: number };
  /** helm-render alone on the chart's directory, a fresh process each run (as helm template is): median. */
  engineMs: number;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** helm-render run by hand on a chart directory, `runs` times: the engine without lightkeeper's Node side. */
function engineTimes(binary: string, root: string, chartDir: string, runs: number): number[] {
  const request = JSON.stringify({
    releaseName: 'bench',
    namespace: 'bench',
    valuesFiles: [],
    values: {},
    kubeVersion,
    apiVersions,
    isUpgrade: false,
  });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    execFileSync(binary, ['helm', root, chartDir], {
      input: request,
      maxBuffer: 64 * 1024 * 1024,
      env: { PATH: '' },
    });
    times.push(performance.now() - started);
  }
  return times;
}

async function helmTemplateTimes(helm: string, chartDir: string, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run(
      helm,
      [
        'template',
        `bench-${i}`,
        chartDir,
        '--namespace',
        'bench',
        '--kube-version',
        kubeVersion,
        ...apiVersions.flatMap((v) => ['--api-versions', v]),
      ],
      {
        maxBuffer: 64 * 1024 * 1024,
        env: { PATH: '', HOME: '/nonexistent', HELM_CACHE_HOME: '/nonexistent' },
      },
    );
    times.push(performance.now() - started);
  }
  return times;
}

export async function measureHelmRender(runs = 7): Promise<ChartTimes[]> {
  const work = mkdtempSync(join(tmpdir(), 'lightkeeper-bench-helm-'));
  try {
    const repo = join(work, 'repo');
    cpSync(podinfo, join(repo, 'charts', 'podinfo'), { recursive: true });
    for (const [path, content] of Object.entries(generatedChart())) {
      mkdirSync(dirname(join(repo, 'charts', 'gen', path)), { recursive: true });
      writeFileSync(join(repo, 'charts', 'gen', path), content);
    }
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', repo, ...args], {
        encoding: 'utf8',
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      }).trim();
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'bench');
    const commit = git('rev-parse', 'HEAD');
    const kustomizeBin = await kustomizeBinary();
    const helm = await helmOracleBinary();
    const child = await bundleBenchScript('helmRenderChild');
    try {
      const out: ChartTimes[] = [];
      for (const chart of ['charts/podinfo', 'charts/gen']) {
        const args: RenderChildArgs = {
          dir: repo,
          commit,
          chart,
          runs,
          kubeVersion,
          apiVersions,
          kustomizeBin,
        };
        const { stdout } = await run(process.execPath, [child, JSON.stringify(args)], { maxBuffer: 1 << 20 });
        const ours = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as RenderChildResult;
        const theirs = await helmTemplateTimes(helm, join(repo, chart), runs);
        const engine = engineTimes(join(dirname(kustomizeBin), 'helm-render'), repo, join(repo, chart), runs);
        out.push({
          chart: chart.replace('charts/', ''),
          objects: ours.objects,
          lightkeeper: {
            coldProcessMs: ours.coldProcessMs,
            coldMs: ours.rendersMs[0] ?? 0,
            warmMs: median(ours.rendersMs.slice(1)),
            warmParseMs: median(ours.parsesMs.slice(1)),
          },
          helmTemplate: { coldMs: theirs[0] ?? 0, warmMs: median(theirs.slice(1)) },
          engineMs: median(engine.slice(1)),
        });
      }
      return out;
    } finally {
      rmSync(dirname(child), { recursive: true, force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** One block per chart: the times and helm template's over lightkeeper's (above 1: lightkeeper is faster). */
export function formatHelmRender(results: ChartTimes[], runs: number): string {
  const ms = (n: number) => `${Math.round(n)} ms`.padStart(8);
  const ratio = (theirs: number, ours: number) => `${(theirs / ours).toFixed(2)}x`;
  return results
    .map((r) =>
      [
        `${r.chart}: ${r.objects} objects (cold: a fresh process; warm: median of ${runs - 1})`,
        `                      lightkeeper  helm template  helm/lightkeeper`,
        `  cold               ${ms(r.lightkeeper.coldMs)}       ${ms(r.helmTemplate.coldMs)}  ${ratio(r.helmTemplate.coldMs, r.lightkeeper.coldMs)}`,
        `  cold, with Node    ${ms(r.lightkeeper.coldProcessMs)}       ${ms(r.helmTemplate.coldMs)}  ${ratio(r.helmTemplate.coldMs, r.lightkeeper.coldProcessMs)}`,
        `  warm               ${ms(r.lightkeeper.warmMs)}       ${ms(r.helmTemplate.warmMs)}  ${ratio(r.helmTemplate.warmMs, r.lightkeeper.warmMs)}`,
        `  helm-render alone  ${ms(r.engineMs)}       ${ms(r.helmTemplate.warmMs)}  ${ratio(r.helmTemplate.warmMs, r.engineMs)}  (each a fresh process, as helm template)`,
        `  (warm: parsing the output ${Math.round(r.lightkeeper.warmParseMs)} ms of lightkeeper's; the rest writes the commit out and runs helm-render)`,
      ].join('\n'),
    )
    .join('\n\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runs = Number(process.argv[2] ?? 7);
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
  const before = load();
  const results = await measureHelmRender(runs);
  console.log(formatHelmRender(results, runs));
  console.log(`\n${cpus().length} CPUs; load average ${before} at the start, ${load()} at the end`);
}
