// The lightkeeper side of `npm run bench:render`, run bundled in a fresh Node process (as a Lambda
// runs it): renders one chart of a git commit `runs` times as a reconcile does (the chart directory
// written out of the object store, helm-render, the parse), each under another release name so no
// render is served from the process's cache. Prints one JSON line: the first render (cold: the
// process's first, the engine never run by it) and the rest (warm), with the time since the process
// started when the first render was done.
import { renderHelmChart } from '../lib/helm/renderHelmChart';
import { parseManifests } from '../lib/manifests';
import { defaultSourceLimits } from '../lib/settings/sourceLimits';

export interface RenderChildArgs {
  dir: string;
  commit: string;
  chart: string;
  runs: number;
  kubeVersion: string;
  apiVersions: string[];
  /** helm-render's directory's kustomize-render, as LIGHTKEEPER_KUSTOMIZE_BIN names it in Lambda. */
  kustomizeBin: string;
}

export interface RenderChildResult {
  objects: number;
  /** Milliseconds: each render with its parse, in order (the first is the cold one). */
  rendersMs: number[];
  /** Of which the parse of the engine's output, each. */
  parsesMs: number[];
  /** Milliseconds from the process's start to the end of its first render. */
  coldProcessMs: number;
}

async function main(args: RenderChildArgs): Promise<RenderChildResult> {
  const rendersMs: number[] = [];
  const parsesMs: number[] = [];
  let objects = 0;
  let coldProcessMs = 0;
  for (let i = 0; i < args.runs; i++) {
    const started = performance.now();
    const render = await renderHelmChart({
      source: { kind: 'commit', dir: args.dir, commit: args.commit },
      release: {
        chart: args.chart,
        releaseName: `bench-${i}`,
        namespace: 'bench',
        valuesFiles: [],
        values: {},
        valuesFrom: [],
      },
      capabilities: { kubeVersion: args.kubeVersion, apiVersions: args.apiVersions },
      isUpgrade: false,
      limits: { ...defaultSourceLimits, kustomizeBin: args.kustomizeBin },
    });
    if (render.errors.length > 0) throw new Error(render.errors.map((e) => e.message).join('\n'));
    const parseStarted = performance.now();
    const parsed = parseManifests(render.files);
    parsesMs.push(performance.now() - parseStarted);
    if (parsed.errors.length > 0) throw new Error(parsed.errors.map((e) => e.message).join('\n'));
    rendersMs.push(performance.now() - started);
    if (i === 0) coldProcessMs = performance.now();
    objects = parsed.manifests.length;
  }
  return { objects, rendersMs, parsesMs, coldProcessMs };
}

const input = process.argv[2];
if (input !== undefined) console.log(JSON.stringify(await main(JSON.parse(input) as RenderChildArgs)));
