import type { RemoteAccess } from '../kustomize/remoteAccess';
import { runEngine } from '../kustomize/runEngine';
import type { RenderLimits } from '../settings/sourceLimits';
import type { DecryptionKeys } from '../sops/runDecrypt';
import type { HelmCapabilities } from './helmCapabilities';
import type { HelmRelease } from './helmSpec';
import type { ValuesContent } from './readValuesFrom';

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

/**
 * An object whose fields a second render of the same request changed (randAlphaNum, now, genCA),
 * as the first render named it; no `fields`: its template rendered another set of objects.
 */
export interface VaryingObject {
  path: string;
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  /** JSON pointers (`/data/password`), never the values. */
  fields: string[];
}

/** What the engine rendered: the release's objects in Helm's install order, its hooks, its `crds/`. */
export interface ChartRender {
  resources: ChartObject[];
  hooks: ChartHook[];
  crds: Array<{ path: string; yaml: string }>;
  /** What differed between the two renders of the request (compareRenders). */
  nondeterministic?: VaryingObject[];
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
  /** spec.helm.valuesFrom's contents, read as the track: they travel on stdin only. */
  valuesFrom: readonly ValuesContent[];
  limits: RenderLimits;
  tmpDir: string;
  /** Where missing dependencies may be fetched from (default: nowhere). */
  remote?: RemoteAccess | undefined;
  /** Where fetched charts are kept between renders (the process's cache). */
  chartCacheDir?: string | undefined;
  /** The track's keys (spec.decryption): values files that are SOPS documents are decrypted in memory. */
  decryption?: DecryptionKeys | undefined;
}

/**
 * Renders a chart twice with the Helm engine (`helm-render helm ROOT CHART`, the request, values
 * included, on stdin only: never in arguments, environment or a file; infra/kustomize/helmrender.go),
 * under the render limits; no network is reachable but the chart repositories `remote` allows, for
 * dependencies charts/ lacks (helmdeps.go). What differs between the two renders is named.
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
    valuesFrom: options.valuesFrom,
    ...(release.postRender ? { postRender: release.postRender } : {}),
    compareRenders: true,
    ...remoteRequest(options.remote, options.chartCacheDir),
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

/** The request's `remote` (infra/kustomize/helmdeps.go helmRemote): none when no network is allowed. */
function remoteRequest(access: RemoteAccess | undefined, cacheDir: string | undefined) {
  if (access === undefined || access.kind === 'none') return {};
  return {
    remote: { hosts: access.hosts, public: access.kind === 'publicOrListed', cacheDir: cacheDir ?? '' },
  };
}
