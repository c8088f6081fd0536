import { runEngine } from '../kustomize/runEngine';
import type { RenderLimits } from '../settings/sourceLimits';
import type { DecryptionKeys } from '../sops/runDecrypt';
import type { HelmCapabilities } from './helmCapabilities';
import type { HelmRelease } from './helmSpec';

/** One object of the chart: its template (`podinfo/templates/deployment.yaml`) and its YAML. */
export interface ChartObject {
  origin: { path: string };
  yaml: string;
}

/** A hook of the chart (`helm.sh/hook`), as Helm read its annotations. */
export interface ChartHook {
  path: string;
  kind: string;
  name: string;
  events: string[];
  weight: number;
  deletePolicies: string[];
  yaml: string;
}

/** What the engine rendered: the release's objects in Helm's install order, its hooks, its `crds/`. */
export interface ChartRender {
  resources: ChartObject[];
  hooks: ChartHook[];
  crds: Array<{ path: string; yaml: string }>;
  /** A values file was decrypted (spec.decryption): any object may hold a decrypted value. */
  decrypted?: boolean;
}

export type HelmRenderOutcome = { ok: true; render: ChartRender } | { ok: false; message: string };

export interface RunHelmRenderOptions {
  binary: string;
  /** The repository checkout: the chart must be inside it. */
  root: string;
  /** The chart directory inside `root`: nothing outside it is read. */
  chartDir: string;
  release: HelmRelease;
  capabilities: HelmCapabilities;
  isUpgrade: boolean;
  limits: RenderLimits;
  tmpDir: string;
  /** The track's keys (spec.decryption): values files that are SOPS documents are decrypted in memory. */
  decryption?: DecryptionKeys | undefined;
}

/**
 * Renders a chart once with the Helm engine (`helm-render helm ROOT CHART`, the request
 * on stdin; infra/kustomize/helmrender.go), under the render limits; no network is reachable.
 */
export async function runHelmRender(options: RunHelmRenderOptions): Promise<HelmRenderOutcome> {
  const { release, capabilities } = options;
  const request = {
    releaseName: release.releaseName,
    namespace: release.namespace,
    valuesFiles: release.valuesFiles,
    values: release.values,
    kubeVersion: capabilities.kubeVersion,
    apiVersions: capabilities.apiVersions,
    isUpgrade: options.isUpgrade,
    ...(options.decryption ? { decryption: options.decryption } : {}),
  };
  const outcome = await runEngine({
    binary: options.binary,
    args: ['helm', options.root, options.chartDir],
    cwd: options.root,
    limits: options.limits,
    env: { PATH: '', HOME: options.tmpDir, TMPDIR: options.tmpDir },
    stdin: JSON.stringify(request),
  });
  if (!outcome.ok) return outcome;
  try {
    return { ok: true, render: JSON.parse(outcome.stdout.toString('utf8')) as ChartRender };
  } catch (e) {
    return { ok: false, message: `unreadable render output: ${(e as Error).message}` };
  }
}
