import fs from 'node:fs';
import type { ProgressCallback } from 'isomorphic-git';
import { isGitLimitError } from '../errors';
import { resetCloneDir } from './cloneDir';
import type { GitConnection } from './gitConnection';
import type { IndexedObjects } from './indexedObjects';
import { fetchIndexed } from './indexingFs';
import { hasCommit } from './readCommitObject';
import { isAuthFailure } from './toGitFetchError';

// `deepen 2147483647` is git's spelling of "all history" (what `git fetch --unshallow` sends).
const DEEPEN_STEPS = [50, 1000, 2147483647];

/**
 * Fetches the commit `sha` into the clone at `dir`, returning whether it is there afterwards.
 *
 * First asks for the SHA directly (depth 1). Over HTTP, `git upload-pack` serves any commit
 * reachable from a ref; some servers serve only advertised tips and answer with an error that
 * isomorphic-git does not surface, so success is judged by the commit being present. Failing that,
 * it deepens the history of every branch and tag step by step until the commit shows up or the
 * history is complete.
 */
export async function fetchBySha(options: {
  dir: string;
  connection: GitConnection;
  sha: string;
  onProgress?: ProgressCallback;
  /** Receives the fetched packs' objects. */
  indexed?: IndexedObjects;
}): Promise<boolean> {
  const { dir, connection, sha, onProgress } = options;
  if (await hasCommit(dir, sha)) return true;
  const common = { connection, dir, onProgress };
  try {
    await fetchIndexed(
      {
        ...common,
        remoteRef: sha,
        singleBranch: true,
        depth: 1,
        tags: false,
      },
      options.indexed,
    );
    if (await hasCommit(dir, sha)) return true;
  } catch (error) {
    // A server that refused us, or went over a limit, is not asked again.
    if (isAuthFailure(error) || isGitLimitError(error) || connection.overLimit()) throw error;
    // The clone may have been left half-written; start the search from a clean one.
    await resetCloneDir(dir);
  }

  for (const depth of DEEPEN_STEPS) {
    await fetchIndexed(
      { ...common, remoteRef: 'HEAD', singleBranch: false, depth, tags: true },
      options.indexed,
    );
    if (await hasCommit(dir, sha)) return true;
    if (!(await isShallow(dir))) return false;
  }
  return false;
}

async function isShallow(dir: string): Promise<boolean> {
  const content = await fs.promises.readFile(`${dir}/.git/shallow`, 'utf8').catch(() => '');
  return content.trim() !== '';
}
