import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FetchCommitResult, fetchCommit, type GitAuth, type ManifestFile } from '../git';
import { readChangedFiles } from '../git/readChangedFiles';
import { withoutKustomizationFiles } from '../kustomize/kustomizationFile';
import { parseManifests } from '../manifests';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { defaultIncrementalMaxFiles } from '../settings/deploymentModes';
import { encryptedParts } from '../sops/sopsDocuments';
import type { DiffRead } from './incrementalGate';
import type { SourceOutcome } from './outcomes';
import { processParseCache } from './processParseCache';
import type { SourceRequest } from './reconcileDeps';
import { gitDeadline } from './timeBudget';

/**
 * The changed files of a fetched commit, when the gate allows an incremental run
 * (request.incremental): the last applied commit fetched into the same clone (no request when it is
 * there), the tree diff under subPath (lib/git/readChangedFiles.ts), the new versions parsed as the
 * commit's manifests and the old ones as what those files held. Undefined, never an error, when
 * anything says the whole track is to be read: the gate, a failure to fetch or compare, an old
 * version that does not parse, a SOPS document among the changed files.
 */
export async function readIncremental(
  request: SourceRequest,
  options: { config: DeploymentConfig; gitCacheRoot?: string | undefined },
  auth: GitAuth | undefined,
  fetched: FetchCommitResult,
): Promise<Extract<SourceOutcome, { state: 'read' }> | undefined> {
  const ask = request.incremental;
  const { commit } = fetched;
  const first = ask?.(commit);
  if (!ask || first?.kind !== 'diff') return undefined;
  const { track } = request;
  const limits = options.config.sourceLimits?.git;
  let diff: DiffRead;
  try {
    await fetchCommit({
      url: track.spec.repository,
      reference: first.from,
      ...(auth ? { auth } : {}),
      cacheRoot: options.gitCacheRoot ?? join(tmpdir(), 'lightkeeper-git'),
      deadline: gitDeadline(request.deadline),
      ...(limits ? { limits } : {}),
    });
    const read = await readChangedFiles({
      dir: fetched.dir,
      from: first.from,
      to: commit,
      subPath: track.spec.subPath ?? '',
      indexed: fetched.indexed,
      limits,
      maxChanges: options.config.incrementalMaxFiles ?? defaultIncrementalMaxFiles,
    });
    diff = read ?? 'unreadable';
  } catch {
    // Whatever failed (the old commit gone from the server, a read limit): the whole track is read.
    diff = 'unreadable';
  }
  const verdict = ask(commit, diff);
  if (verdict.kind !== 'incremental') return undefined;
  const { files } = verdict;
  const plain = (f: ManifestFile[]) =>
    track.spec.kustomize?.enabled === false ? withoutKustomizationFiles(f) : f;
  const cache = processParseCache();
  const before = parseManifests(plain(files.before), { cache });
  // What the changed files held must be known to prune it: else the whole track is checked.
  if (before.errors.length > 0) return undefined;
  const after = parseManifests(plain(files.after), { cache });
  // SOPS documents are decrypted on a whole read only (lib/reconcile/decryptSource.ts): a changed
  // encrypted file, old or new, has the whole track read, never ciphertext applied or pruned by.
  if (encryptedParts([...before.manifests, ...after.manifests]).documents.length > 0) return undefined;
  return {
    state: 'read',
    commit,
    files: files.after.length,
    manifests: after.manifests,
    errors: after.errors.map((e) => e.message),
    incremental: {
      from: verdict.from,
      paths: files.paths,
      before: before.manifests,
      fileAt: async (path) => {
        const file = await files.fileAt(path);
        return file && parseManifests(plain([file]), { cache }).manifests;
      },
    },
  };
}
