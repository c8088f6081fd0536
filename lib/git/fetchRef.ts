import fs from 'node:fs';
import { type ProgressCallback, resolveRef } from 'isomorphic-git';
import { GitFetchError } from '../errors';
import type { GitConnection } from './gitConnection';
import type { IndexedObjects } from './indexedObjects';
import { fetchIndexed } from './indexingFs';
import { peelToCommit } from './readCommitObject';

/**
 * Fetches the commit at the tip of a branch or tag (`refs/heads/x`, `refs/tags/x`) into the clone at
 * `dir`: depth 1, that ref only, no other tags. Returns the commit, tags peeled.
 *
 * The fetch names the commit the clone fetched last as one it has and asks for a thin pack
 * (fetchedRef.ts, thinPack.ts): the server sends what that commit does not hold, not the whole tree.
 *
 * The commit fetched must be the one listed: a ref moved in between, or a tip read back from a
 * clone someone else wrote to, is a GitFetchError and nothing of it is used.
 */
export async function fetchRef(options: {
  dir: string;
  connection: GitConnection;
  ref: string;
  /** What the server listed for `ref` just before (tags peeled). */
  listed: string;
  onProgress?: ProgressCallback;
  /** Receives the fetched pack's objects. */
  indexed?: IndexedObjects;
}): Promise<string> {
  const { dir, connection, ref, listed, onProgress } = options;
  const { url, subject } = connection;
  const result = await fetchIndexed(
    {
      connection,
      dir,
      onProgress,
      remoteRef: ref,
      singleBranch: true,
      depth: 1,
      tags: false,
    },
    options.indexed,
  );
  if (result !== undefined && !result.fetchHead)
    throw new GitFetchError(`${subject} sent nothing for ${ref}`, { subject });
  const tip = result === undefined ? await fetchedTip(dir, ref, listed) : (result.fetchHead as string);
  const commit = await peelToCommit(dir, tip, ref, url);
  if (commit !== listed) {
    throw new GitFetchError(
      `${subject}: ${ref} was listed at ${listed} but the fetch brought ${commit}; nothing of it is used`,
      { subject },
    );
  }
  return commit;
}

/**
 * The tip a fetch that ended with its pack (see fetchIndexed) brought: a branch's as written under
 * the remote's refs (the fetch wrote it before the pack); a tag, whose ref is not written without
 * tags, as listed.
 */
async function fetchedTip(dir: string, ref: string, listed: string): Promise<string> {
  if (!ref.startsWith('refs/heads/')) return listed;
  return resolveRef({ fs, dir, ref: `refs/remotes/origin/heads/${ref.slice('refs/heads/'.length)}` });
}
