import fs from 'node:fs';
import { type ProgressCallback, resolveRef } from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import { GitFetchError } from '../errors';
import type { IndexedObjects } from './indexedObjects';
import { fetchIndexed } from './indexingFs';
import { peelToCommit } from './readCommitObject';
import { redactUrl } from './redactUrl';

/**
 * Fetches the commit at the tip of a branch or tag (`refs/heads/x`, `refs/tags/x`) into the clone at
 * `dir`: depth 1, that ref only, no other tags. Returns the commit, tags peeled.
 *
 * isomorphic-git does not ask for thin packs, so a depth-1 fetch transfers the whole tree of the new
 * commit even when most of it is already here; callers skip the fetch when the commit is present.
 */
export async function fetchRef(options: {
  dir: string;
  url: string;
  ref: string;
  /** What the server listed for `ref` just before (tags peeled). */
  listed: string;
  headers: Record<string, string>;
  onProgress?: ProgressCallback;
  /** Receives the fetched pack's objects. */
  indexed?: IndexedObjects;
}): Promise<string> {
  const { dir, url, ref, listed, headers, onProgress } = options;
  const result = await fetchIndexed(
    {
      http,
      dir,
      url,
      headers,
      onProgress,
      remote: 'origin',
      remoteRef: ref,
      singleBranch: true,
      depth: 1,
      tags: false,
    },
    options.indexed,
  );
  if (result === undefined) return peelToCommit(dir, await fetchedTip(dir, ref, listed), ref, url);
  if (!result.fetchHead) {
    const where = redactUrl(url);
    throw new GitFetchError(`${where} sent nothing for ${ref}`, { subject: where });
  }
  return peelToCommit(dir, result.fetchHead, ref, url);
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
