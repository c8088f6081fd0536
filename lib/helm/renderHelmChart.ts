import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManifestError } from '../errors';
import type { KustomizeSource } from '../kustomize/findKustomization';
import type { RemoteAccess } from '../kustomize/remoteAccess';
import { renderRoot } from '../kustomize/renderRoot';
import type { ManifestFile } from '../manifests';
import { defaultSourceLimits, type SourceLimits } from '../settings/sourceLimits';
import type { DecryptionKeys } from '../sops/runDecrypt';
import { chartManifestFiles, type SkippedHook, skippedHooks } from './chartFiles';
import { helmBinary } from './helmBinary';
import type { HelmCapabilities } from './helmCapabilities';
import type { CrdPolicy } from './helmPolicies';
import type { HelmRelease } from './helmSpec';
import { type ValuesContent, valuesDigest } from './readValuesFrom';
import { redactSecretValues, secretValues } from './redactSecretValues';
import { type ChartHook, runHelmRender, type VaryingObject } from './runHelmRender';

export interface HelmRender {
  /** Repository path of the chart ('' for the root). */
  chart: string;
  release: string;
  namespace: string;
  /** The chart's objects (its crds/ first), one file per template; empty when the render failed. */
  files: ManifestFile[];
  /** The hooks, named for the track's status. */
  hooks: SkippedHook[];
  /** The hooks as rendered, in the order Helm lists them (lib/helm/hookPlan.ts runs them). */
  chartHooks: ChartHook[];
  /** The render's failure, as a parse error of the chart (every value a Secret gave scrubbed). */
  errors: ManifestError[];
  /** What a second render of the same request changed. */
  nondeterministic: VaryingObject[];
  /** A values file was decrypted: every object of the render is to be treated as decrypted. */
  decrypted: boolean;
  ms: number;
}

export interface RenderHelmOptions {
  source: KustomizeSource;
  release: HelmRelease;
  capabilities: HelmCapabilities;
  /** `.Release.IsUpgrade`: the track applied this chart before. */
  isUpgrade: boolean;
  /** spec.helm.crds (default CreateReplace). */
  crds?: CrdPolicy | undefined;
  /** spec.helm.valuesFrom's contents, read as the track (readValuesFrom). */
  valuesFrom?: readonly ValuesContent[] | undefined;
  /** The read of the commit, the render and the engine's binary (default: the defaults, a locally built engine). */
  limits?: SourceLimits | undefined;
  /** Where dependencies charts/ lacks may be fetched from (default: nowhere; lib/kustomize/remoteAccess.ts). */
  remote?: RemoteAccess | undefined;
  /** The track's keys (spec.decryption). A render with keys is never cached: no plaintext is kept. */
  decryption?: DecryptionKeys | undefined;
}

/** Charts fetched from chart repositories, kept for this process (a warm Lambda container fetches each once). */
const chartCacheDir = join(tmpdir(), `lightkeeper-charts-${process.pid}`);

const cache = new Map<string, HelmRender>();
const CACHE_ENTRIES = 16;

/**
 * Renders the track's chart with the real Helm SDK (the engine's Helm mode) from the commit's own
 * files: the chart directory of the commit written out (materializeCommit), nothing outside it read,
 * no network but the chart repositories `remote` allows. A commit's render is kept per process for
 * the same release, values (valuesFrom by digest), capabilities and remote access.
 */
export async function renderHelmChart(options: RenderHelmOptions): Promise<HelmRender> {
  const { source, release } = options;
  const limits = options.limits ?? defaultSourceLimits;
  const valuesFrom = options.valuesFrom ?? [];
  const key =
    source.kind === 'commit' && options.decryption === undefined
      ? createHash('sha256')
          .update(
            JSON.stringify([
              source.dir,
              source.commit,
              release,
              valuesDigest(valuesFrom),
              options.capabilities,
              options.isUpgrade,
              options.crds,
              options.remote ?? { kind: 'none' },
            ]),
          )
          .digest('hex')
      : undefined;
  const cached = key === undefined ? undefined : cache.get(key);
  if (cached) return cached;
  const started = Date.now();
  const secrets = secretValues(valuesFrom);
  const result = (
    files: ManifestFile[],
    hooks: ChartHook[],
    error?: string,
    rendered: { nondeterministic?: VaryingObject[] | undefined; decrypted?: boolean | undefined } = {},
  ): HelmRender => ({
    chart: release.chart,
    release: release.releaseName,
    namespace: release.namespace,
    files,
    hooks: skippedHooks(hooks),
    chartHooks: hooks,
    errors:
      error === undefined
        ? []
        : [
            new ManifestError(`helm render failed: ${redactSecretValues(error, secrets)}`, {
              path: chartPath(release),
            }),
          ],
    nondeterministic: rendered.nondeterministic ?? [],
    decrypted: rendered.decrypted === true,
    ms: Date.now() - started,
  });
  const scratch = await mkdtemp(join(tmpdir(), 'lightkeeper-helm-'));
  try {
    // Only the chart's directory is written out: the engine reads nothing else (chartfiles.go).
    const { root, refused } = await renderRoot(source, scratch, limits.git, release.chart);
    if (refused !== undefined) return result([], [], refused.message);
    const tmpDir = join(scratch, 'tmp');
    await mkdir(tmpDir);
    const binary = await helmBinary(limits.kustomizeBin).catch((e: Error) => e);
    if (binary instanceof Error) return result([], [], binary.message);
    const outcome = await runHelmRender({
      binary,
      root,
      chartDir: join(root, release.chart),
      release,
      capabilities: options.capabilities,
      isUpgrade: options.isUpgrade,
      valuesFrom,
      limits: limits.render,
      tmpDir,
      remote: options.remote,
      chartCacheDir,
      decryption: options.decryption,
    });
    if (!outcome.ok) return result([], [], outcome.message);
    const render = result(
      chartManifestFiles(outcome.render, options.crds),
      outcome.render.hooks,
      undefined,
      outcome.render,
    );
    if (key !== undefined) {
      if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(key, render);
    }
    return render;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

const chartPath = (release: HelmRelease) =>
  release.chart === '' ? 'Chart.yaml' : `${release.chart}/Chart.yaml`;
