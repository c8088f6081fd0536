import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ManifestError } from '../errors';
import { validateSubPath } from '../git/validateSubPath';
import type { ManifestFile } from '../manifests';
import { defaultSourceLimits, type SourceLimits } from '../settings/sourceLimits';
import { findKustomization, type KustomizeSource } from './findKustomization';
import { kustomizeBinary } from './kustomizeBinary';
import type { KustomizeSpec } from './kustomizeSettings';
import { remoteAccess } from './remoteAccess';
import { renderedFiles } from './renderedFiles';
import { renderRoot } from './renderRoot';
import { type EngineKeys, runKustomizeRender } from './runKustomizeRender';

export interface KustomizeRender {
  /** Repository path of the kustomization file rendered. */
  kustomization: string;
  /** The rendered objects as manifest files (see renderedFiles); empty when the render failed. */
  files: ManifestFile[];
  /** The render's failure, as a parse error of the kustomization file. */
  errors: ManifestError[];
  /** A SOPS file was decrypted as it was read: any object may hold a decrypted value. */
  decrypted?: boolean;
  ms: number;
}

export interface RenderOptions {
  source: KustomizeSource;
  subPath: string;
  spec?: KustomizeSpec;
  /** The track's kind (default GitTrack): a GitTrack's remote content only ever comes from `remoteHosts`. */
  trackKind?: 'GitTrack' | 'ClusterGitTrack';
  /** The deployment's allow-list of remote hosts (DeploymentConfig.kustomizeRemoteHosts). */
  remoteHosts?: readonly string[] | undefined;
  /** The read of the commit, the render and the engine's binary (default: the defaults, a locally built engine). */
  limits?: SourceLimits | undefined;
  /**
   * The track's keys (spec.decryption): the full engine (helm-render) renders, decrypting SOPS files
   * in memory as kustomize reads them. Such a render is never cached.
   */
  decryption?: EngineKeys | undefined;
}

const cache = new Map<string, KustomizeRender>();
const CACHE_ENTRIES = 16;

/**
 * When `subPath` holds a kustomization (and `spec.enabled` is not false), renders it with the real
 * kustomize engine under lightkeeper's restrictions (kustomize-render); otherwise undefined and the
 * files are read as they are. A commit's render is kept per process (commits never change) unless
 * it may read remote bases.
 */
export async function renderKustomization(options: RenderOptions): Promise<KustomizeRender | undefined> {
  const { source, spec } = options;
  const limits = options.limits ?? defaultSourceLimits;
  if (spec?.enabled === false) return undefined;
  const subPath = validateSubPath(options.subPath).join('/');
  const name = await findKustomization(source, subPath);
  if (name === undefined) return undefined;
  const remote = remoteAccess(options.trackKind ?? 'GitTrack', spec, options.remoteHosts);
  const key =
    source.kind === 'commit' && remote.kind === 'none' && options.decryption === undefined
      ? `${source.dir}\0${source.commit}\0${subPath}`
      : undefined;
  const cached = key === undefined ? undefined : cache.get(key);
  if (cached) return cached;

  const started = Date.now();
  const kustomization = subPath === '' ? name : `${subPath}/${name}`;
  const scratch = await mkdtemp(join(tmpdir(), 'lightkeeper-kustomize-'));
  try {
    const { root, refused } = await renderRoot(source, scratch, limits.git);
    if (refused !== undefined) {
      const message = `kustomize build failed: ${refused.message}`;
      return {
        kustomization,
        files: [],
        errors: [new ManifestError(message, { path: kustomization, cause: refused })],
        ms: Date.now() - started,
      };
    }
    const tmpDir = join(scratch, 'tmp');
    await mkdir(tmpDir);
    const lean = await kustomizeBinary(limits.kustomizeBin).catch((e: Error) => e);
    // The decrypting engine is the full one beside it (infra/build-kustomize.sh).
    const binary =
      lean instanceof Error || options.decryption === undefined ? lean : join(dirname(lean), 'helm-render');
    const outcome =
      binary instanceof Error
        ? { ok: false as const, message: binary.message }
        : await runKustomizeRender({
            binary,
            root,
            dir: join(root, subPath),
            remote,
            limits: limits.render,
            tmpDir,
            decryption: options.decryption,
          });
    const render: KustomizeRender = outcome.ok
      ? {
          kustomization,
          files: renderedFiles(outcome.resources, subPath),
          errors: [],
          decrypted: outcome.decrypted,
          ms: Date.now() - started,
        }
      : {
          kustomization,
          files: [],
          errors: [new ManifestError(`kustomize build failed: ${outcome.message}`, { path: kustomization })],
          ms: Date.now() - started,
        };
    if (key !== undefined && outcome.ok) {
      if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(key, render);
    }
    return render;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
