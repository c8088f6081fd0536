import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchCommit, type ManifestFile, readManifestFiles } from '../git';
import { readHelmCapabilities } from '../helm/helmCapabilities';
import { trackClient } from '../identity/trackIdentity';
import { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import type { KustomizeSource } from '../kustomize/findKustomization';
import { withoutKustomizationFiles } from '../kustomize/kustomizationFile';
import { renderKustomization } from '../kustomize/renderKustomization';
import { parseManifests } from '../manifests';
import { decryptionKeys, decryptSource } from '../reconcile/decryptSource';
import { helmSource } from '../reconcile/helmSource';
import { pinnedCommit } from '../reconcile/pinnedCommit';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { marked } from '../sops/decryptedManifests';
import { loadTrack } from '../track/loadTrack';
import { readGitAuth } from '../track/readGitAuth';
import type { TrackRef } from '../track/trackRef';
import type { DiffPlan } from './diffPlan';
import { localRepositoryRoot } from './localRepositoryRoot';
import { planDiff } from './planDiff';
import { readLocalFiles } from './readLocalFiles';

export interface DiffRequest {
  track: TrackRef;
  /** A full commit SHA; default what a reconcile would apply (the pin, else the reference's head). */
  commit?: string;
  /** A working tree to compare instead of a commit; read under the track's subPath. */
  local?: string;
  /** Where the clone goes; default a temporary directory of this diff, removed when it is done. */
  gitCacheRoot?: string;
}

/** Fetch (or read) and parse as a reconcile does, then plan the diff. Writes nothing. */
export async function diffTrack(
  client: KubeClient,
  config: DeploymentConfig,
  request: DiffRequest,
): Promise<DiffPlan> {
  if (request.gitCacheRoot !== undefined) return diffIn(client, config, request, request.gitCacheRoot);
  const gitCacheRoot = await mkdtemp(join(tmpdir(), 'lightkeeper-git-'));
  try {
    return await diffIn(client, config, request, gitCacheRoot);
  } finally {
    await rm(gitCacheRoot, { recursive: true, force: true });
  }
}

async function diffIn(
  client: KubeClient,
  config: DeploymentConfig,
  request: DiffRequest,
  gitCacheRoot: string,
): Promise<DiffPlan> {
  const track = await loadTrack(client, request.track);
  const subPath = track.spec.subPath ?? '';
  let files: ManifestFile[];
  let source: string;
  let where: KustomizeSource;
  if (request.local !== undefined) {
    const root = await localRepositoryRoot(request.local, subPath);
    files = await readLocalFiles(root, subPath);
    source = `local ${root}`;
    where = { kind: 'local', dir: root };
  } else {
    const auth = await readGitAuth(trackClient(client, track, config), track);
    const fetched = await fetchCommit({
      url: track.spec.repository,
      reference: pinnedCommit(track.spec, { commit: request.commit }).reference,
      auth,
      cacheRoot: gitCacheRoot,
      limits: config.sourceLimits?.git,
    });
    files = await readManifestFiles({
      dir: fetched.dir,
      commit: fetched.commit,
      subPath,
      indexed: fetched.indexed,
      limits: config.sourceLimits?.git,
    });
    source = fetched.commit;
    where = { kind: 'commit', dir: fetched.dir, commit: fetched.commit };
  }
  const keys = await decryptionKeys(client, config, track);
  if (track.spec.helm !== undefined) {
    const discovery = await new Discovery(client).refresh();
    const capabilities = await readHelmCapabilities(client, discovery);
    if ('error' in keys) return planDiff(client, config, track, [], source, [keys.error]);
    const chart = await helmSource(
      track,
      where,
      capabilities,
      config.sourceLimits,
      { client: trackClient(client, track, config), discovery },
      { remoteHosts: config.kustomizeRemoteHosts, decryption: keys.keys },
    );
    const errors = chart.failed === undefined ? chart.errors : [...chart.errors, chart.failed];
    return planDiff(client, config, track, chart.manifests, source, errors);
  }
  const render = await renderKustomization({
    source: where,
    subPath,
    spec: track.spec.kustomize,
    trackKind: track.kind,
    remoteHosts: config.kustomizeRemoteHosts,
    limits: config.sourceLimits,
    decryption: 'keys' in keys ? keys.keys : undefined,
  });
  const parsed = render
    ? render.errors.length > 0
      ? { manifests: [], errors: render.errors }
      : parseManifests(render.files)
    : parseManifests(track.spec.kustomize?.enabled === false ? withoutKustomizationFiles(files) : files);
  // With the track's keys, read as the track: a file it cannot decrypt is an error, the others are diffed.
  const manifests = render?.decrypted ? parsed.manifests.map(marked) : parsed.manifests;
  const decrypted = await decryptSource(manifests, { client, config, track });
  return planDiff(client, config, track, decrypted.manifests, source, [
    ...parsed.errors.map((e) => e.message),
    ...decrypted.errors,
  ]);
}
