import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProgressCallback } from 'isomorphic-git';
import { GitFetchError } from '../errors';
import { DEFAULT_GIT_LIMITS, type GitLimits } from '../settings/sourceLimits';
import type { GitAuth } from './authHeaders';
import { cloneDirFor, discardCloneDir, isCloneComplete, markCloneComplete, openCloneDir } from './cloneDir';
import { fetchBySha } from './fetchBySha';
import { recordFetched } from './fetchedRef';
import { fetchRef } from './fetchRef';
import { openConnection } from './gitConnection';
import { IndexedObjects } from './indexedObjects';
import { hasCommit } from './readCommitObject';
import { redactUrl } from './redactUrl';
import { refusePlainHttpCredentials } from './refusePlainHttpCredentials';
import { isFullSha, type ResolvedReference, resolveReference } from './resolveReference';
import { serialized } from './serialized';
import { toGitFetchError } from './toGitFetchError';

export interface FetchCommitOptions {
  /** http(s) smart-HTTP remote. */
  url: string;
  /** A branch name, a tag name, or a full 40-hex commit SHA. */
  reference: string;
  auth?: GitAuth;
  /** Where clones are kept, one per URL and credentials; default `$TMPDIR/lightkeeper-git`. */
  cacheRoot?: string;
  onProgress?: ProgressCallback;
  /** What the transfer may cost (default: the defaults; the loaders read the deployment's). */
  limits?: GitLimits;
  /** The run's deadline (epoch ms): the ref listing and fetch together end by it. */
  deadline?: number;
}

export interface FetchCommitResult {
  /** Full SHA of the fetched commit. */
  commit: string;
  /** The clone holding it (objects only, nothing checked out). */
  dir: string;
  /** The objects this call fetched, for readManifestFiles; absent when nothing was transferred. */
  indexed?: IndexedObjects;
}

/**
 * Fetches the commit `reference` names into a cached clone of `url`: shallow, a single ref and no
 * tags for branches and tags. Fetches of the same clone are serialized within the process.
 *
 * The clone is the one for exactly these credentials (see cloneDirFor), so a full SHA it already
 * holds is served without asking the server: whoever sends these credentials could fetch it
 * anyway. The one thing a server check would add is noticing revoked credentials, and only for
 * commits fetched before the revocation; a branch or tag is looked up on the server every time,
 * while a pinned SHA or a replay stays free of requests.
 */
export async function fetchCommit(options: FetchCommitOptions): Promise<FetchCommitResult> {
  const { url, reference, auth, onProgress } = options;
  refusePlainHttpCredentials(url, auth);
  const dir = cloneDirFor(url, options.cacheRoot ?? join(tmpdir(), 'lightkeeper-git'), auth);
  const limits = options.limits ?? DEFAULT_GIT_LIMITS;

  return serialized(dir, async () => {
    // Commits never change: one already in a complete clone needs no network at all.
    if (isFullSha(reference) && isCloneComplete(dir) && (await hasCommit(dir, reference.toLowerCase()))) {
      return { commit: reference.toLowerCase(), dir };
    }
    // The deadline starts once this fetch's turn has come.
    const connection = openConnection({ url, auth, limits, deadline: options.deadline });
    let target: ResolvedReference;
    try {
      target = await resolveReference(connection, reference);
    } catch (error) {
      throw toGitFetchError(error, url, connection);
    }

    // Unchanged since the last fetch (or already fetched for another reference): nothing to transfer.
    if (isCloneComplete(dir) && (await hasCommit(dir, target.oid))) return { commit: target.oid, dir };

    await openCloneDir(dir);
    let commit: string | undefined;
    const indexed = new IndexedObjects();
    try {
      if (target.kind === 'commit') {
        const found = await fetchBySha({ dir, connection, sha: target.oid, onProgress, indexed });
        commit = found ? target.oid : undefined;
      } else {
        commit = await fetchRef({
          dir,
          connection,
          ref: target.ref,
          listed: target.oid,
          onProgress,
          indexed,
        });
      }
      if (commit !== undefined) await recordFetched(dir, commit);
      await markCloneComplete(dir);
    } catch (error) {
      await discardCloneDir(dir);
      throw toGitFetchError(error, url, connection);
    }
    if (commit === undefined) {
      const where = redactUrl(url);
      throw new GitFetchError(`commit ${reference} not found in ${where}`, { subject: where });
    }
    return { commit, dir, indexed };
  });
}
