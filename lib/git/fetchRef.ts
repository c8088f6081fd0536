import fs from 'node:fs';
import { fetch, type ProgressCallback } from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import { GitFetchError } from '../errors';
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
  headers: Record<string, string>;
  onProgress?: ProgressCallback;
}): Promise<string> {
  const { dir, url, ref, headers, onProgress } = options;
  const result = await fetch({
    fs,
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
  });
  if (!result.fetchHead) {
    const where = redactUrl(url);
    throw new GitFetchError(`${where} sent nothing for ${ref}`, { subject: where });
  }
  return peelToCommit(dir, result.fetchHead, ref, url);
}
