import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManifestError } from '../errors';
import type { KustomizeSource } from '../kustomize/findKustomization';
import { renderRoot } from '../kustomize/renderRoot';
import type { ManifestFile } from '../manifests';
import { defaultSourceLimits, type SourceLimits } from '../settings/sourceLimits';
import type { DecryptionKeys } from '../sops/runDecrypt';
import { chartManifestFiles, type SkippedHook, skippedHooks } from './chartFiles';
import { helmBinary } from './helmBinary';
import type { HelmCapabilities } from './helmCapabilities';
import type { HelmRelease } from './helmSpec';
import { runHelmRender } from './runHelmRender';

export interface HelmRender {
  /** Repository path of the chart ('' for the root). */
  chart: string;
  release: string;
  namespace: string;
  /** The chart's objects (its crds/ first), one file per template; empty when the render failed. */
  files: ManifestFile[];
  /** Hooks are not applied (yet): named here for the track's status. */
  hooks: SkippedHook[];
  /** The render's failure, as a parse error of the chart. */
  errors: ManifestError[];
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
  /** The read of the commit, the render and the engine's binary (default: the defaults, a locally built engine). */
  limits?: SourceLimits | undefined;
  /** The track's keys (spec.decryption). A render with keys is never cached: no plaintext is kept. */
  decryption?: DecryptionKeys | undefined;
}

const cache = new Map<string, HelmRender>();
const CACHE_ENTRIES = 16;

/**
 * Renders the track's chart with the real Helm SDK (the engine's Helm mode) from the commit's own
 * files: the chart directory of the commit written out (materializeCommit), nothing outside it read,
 * no network. A commit's render is kept per process for the same release, values and capabilities.
 */
export async function renderHelmChart(options: RenderHelmOptions): Promise<HelmRender> {
  const { source, release } = options;
  const limits = options.limits ?? defaultSourceLimits;
  const key =
    source.kind === 'commit' && options.decryption === undefined
      ? createHash('sha256')
          .update(
            JSON.stringify([source.dir, source.commit, release, options.capabilities, options.isUpgrade]),
          )
          .digest('hex')
      : undefined;
  const cached = key === undefined ? undefined : cache.get(key);
  if (cached) return cached;
  const started = Date.now();
  const result = (
    files: ManifestFile[],
    hooks: SkippedHook[],
    error?: string,
    decrypted = false,
  ): HelmRender => ({
    chart: release.chart,
    release: release.releaseName,
    namespace: release.namespace,
    files,
    hooks,
    errors:
      error === undefined
        ? []
        : [new ManifestError(`helm render failed: ${error}`, { path: chartPath(release) })],
    decrypted,
    ms: Date.now() - started,
  });
  const scratch = await mkdtemp(join(tmpdir(), 'lightkeeper-helm-'));
  try {
    const { root, refused } = await renderRoot(source, scratch, limits.git);
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
      limits: limits.render,
      tmpDir,
      decryption: options.decryption,
    });
    if (!outcome.ok) return result([], [], outcome.message);
    const render = result(
      chartManifestFiles(outcome.render),
      skippedHooks(outcome.render.hooks),
      undefined,
      outcome.render.decrypted === true,
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
