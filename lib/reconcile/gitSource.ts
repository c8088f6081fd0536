import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isGitFetchError, isGitLimitError, isLightkeeperError } from '../errors';
import { fetchCommit, type GitAuth, type ManifestFile, readManifestFiles } from '../git';
import { discardIfDamaged } from '../git/damagedClone';
import { isRefusedTree } from '../git/readTypedObject';
import { resolveHead } from '../git/resolveHead';
import { type HelmCapabilities, readHelmCapabilities } from '../helm/helmCapabilities';
import { trackClient } from '../identity/trackIdentity';
import type { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { withoutKustomizationFiles } from '../kustomize/kustomizationFile';
import { renderKustomization } from '../kustomize/renderKustomization';
import { cachedFileBytes, type ParseCache, parseManifests } from '../manifests';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { DEFAULT_GIT_LIMITS } from '../settings/sourceLimits';
import { marked } from '../sops/decryptedManifests';
import { readGitAuth } from '../track/readGitAuth';
import { decryptionKeys, decryptSource } from './decryptSource';
import { helmSource } from './helmSource';
import { readIncremental } from './incrementalSource';
import type { HeadListing, SourceOutcome } from './outcomes';
import { parseCacheForRead, processParseCache } from './processParseCache';
import type { Source, SourceRequest } from './reconcileDeps';
import { gitDeadline } from './timeBudget';

export interface GitSourceOptions {
  client: KubeClient;
  config: DeploymentConfig;
  /** Where clones are kept and reused (default: the OS temp dir). */
  gitCacheRoot?: string | undefined;
}

/**
 * The track's commit from its git repository: credentials read as the track's identity
 * (lib/identity), the commit fetched and its subPath read (lib/git), a kustomization rendered
 * (lib/kustomize), the manifests parsed (lib/manifests). A failure the engine knows is an outcome.
 */
export const gitSource =
  (options: GitSourceOptions): Source =>
  async (request) => {
    const { track } = request;
    let auth: GitAuth | undefined;
    try {
      auth = await readGitAuth(trackClient(options.client, track, options.config), track);
    } catch (e) {
      if (!isLightkeeperError(e)) throw e;
      return { state: 'unfetched', error: e.message, gitFailure: false, credentialsFailed: true };
    }
    const head = request.listHead ? { head: await listHead(request, auth, options.config) } : {};
    let commit: string | undefined;
    let dir: string | undefined;
    let files: ManifestFile[] = [];
    // One map for the read and the parse: files it holds are not read from git again.
    const cache = processParseCache();
    // Only the files changed since the last applied commit, when the gate allows (incrementalSource.ts).
    let changed: Awaited<ReturnType<typeof readIncremental>>;
    try {
      const fetched = await fetchCommit({
        url: track.spec.repository,
        reference: request.reference,
        auth,
        cacheRoot: options.gitCacheRoot ?? join(tmpdir(), 'lightkeeper-git'),
        deadline: gitDeadline(request.deadline),
        limits: options.config.sourceLimits?.git,
      });
      commit = fetched.commit;
      dir = fetched.dir;
      request.onFetched(commit);
      changed = await readIncremental(request, options, auth, fetched);
      const subPath = track.spec.subPath ?? '';
      if (!changed)
        files = await readManifestFiles({
          dir,
          commit,
          indexed: fetched.indexed,
          subPath,
          limits: options.config.sourceLimits?.git,
          known: (path, oid) => cachedFileBytes(cache, path, oid),
        });
    } catch (e) {
      if (!isLightkeeperError(e)) throw e;
      // The next run fetches a new clone instead of failing on the same damage (damagedClone.ts).
      if (dir !== undefined) await discardIfDamaged(dir, e);
      // A tree git refuses (`..`, `.git`, a name twice), or a commit fetched but too large to read
      // (a GitLimitError past a read limit): broken like a commit that does not parse.
      if (isRefusedTree(e) || (isGitLimitError(e) && commit !== undefined))
        return { ...head, state: 'unreadable', commit: commit as string, error: e.message };
      // The git server or repository failed (a transfer limit included), not the cluster.
      return {
        ...head,
        state: 'unfetched',
        error: e.message,
        gitFailure: isGitFetchError(e) || isGitLimitError(e),
      };
    }
    await request.onRead?.(commit);
    if (changed) return { ...head, ...changed };
    const limits = options.config.sourceLimits?.git ?? DEFAULT_GIT_LIMITS;
    return {
      ...head,
      ...(await parse(request, options, dir, commit, files, parseCacheForRead(cache, files, limits))),
    };
  };

/** The head of `spec.reference`, for a pinned track's report: never fails the run. */
async function listHead(
  request: SourceRequest,
  auth: GitAuth | undefined,
  config: DeploymentConfig,
): Promise<HeadListing> {
  const { repository: url, reference } = request.track.spec;
  try {
    const deadline = gitDeadline(request.deadline);
    return {
      commit: await resolveHead({ url, reference, auth, deadline, limits: config.sourceLimits?.git }),
    };
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    return { error: e.message };
  }
}

/**
 * A chart (spec.helm) or a kustomization in subPath is rendered first; its objects then go the way
 * files go.
 */
async function parse(
  request: SourceRequest,
  options: GitSourceOptions,
  dir: string,
  commit: string,
  files: ManifestFile[],
  cache: ParseCache,
): Promise<SourceOutcome> {
  const { track } = request;
  const { config } = options;
  if (track.spec.helm !== undefined) return chartSource(request, options, dir, commit, files.length);
  const read = { state: 'read', commit, files: files.length } as const;
  const keys = await decryptionKeys(options.client, config, track);
  const render = await renderKustomization({
    source: { kind: 'commit', dir, commit },
    subPath: track.spec.subPath ?? '',
    spec: track.spec.kustomize,
    trackKind: track.kind,
    remoteHosts: config.kustomizeRemoteHosts,
    limits: config.sourceLimits,
    decryption: 'keys' in keys ? keys.keys : undefined,
  });
  if (render?.errors.length) return { ...read, manifests: [], errors: render.errors.map((e) => e.message) };
  const parsed = render
    ? parseManifests(render.files, { cache })
    : parseManifests(track.spec.kustomize?.enabled === false ? withoutKustomizationFiles(files) : files, {
        cache,
      });
  // Rendered from decrypted files, any object may hold a decrypted value: each is marked.
  const manifests = render?.decrypted ? parsed.manifests.map(marked) : parsed.manifests;
  const decrypted = await decryptSource(manifests, { client: options.client, config, track });
  return {
    ...read,
    ...(render ? { kustomization: render.kustomization } : {}),
    manifests: decrypted.manifests,
    errors: [...parsed.errors.map((e) => e.message), ...decrypted.errors],
  };
}

/** The chart rendered with the cluster's capabilities; a failure to read them is the cluster's. */
async function chartSource(
  request: SourceRequest,
  options: GitSourceOptions,
  dir: string,
  commit: string,
  files: number,
): Promise<SourceOutcome> {
  const { discovery } = request;
  if (discovery === undefined)
    return {
      state: 'read',
      commit,
      files,
      manifests: [],
      errors: ['no cluster discovery to render the chart with'],
    };
  let capabilities: HelmCapabilities;
  let served: Discovery;
  try {
    served = await discovery();
    capabilities = await readHelmCapabilities(options.client, served);
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    const error = `reading the cluster's capabilities for the chart failed: ${e.message}`;
    return { state: 'unfetched', error, gitFailure: false };
  }
  const keys = await decryptionKeys(options.client, options.config, request.track);
  if ('error' in keys) return { state: 'read', commit, files, manifests: [], errors: [keys.error] };
  const client = trackClient(options.client, request.track, options.config);
  const { failed, ...chart } = await helmSource(
    request.track,
    { kind: 'commit', dir, commit },
    capabilities,
    options.config.sourceLimits,
    { client, discovery: served },
    { remoteHosts: options.config.kustomizeRemoteHosts, decryption: keys.keys },
  );
  if (failed !== undefined) return { state: 'unfetched', error: failed, gitFailure: false };
  return { state: 'read', commit, files, ...chart };
}
