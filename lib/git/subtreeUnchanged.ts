import type { GitLimits } from '../settings/sourceLimits';
import type { GitAuth } from './authHeaders';
import { fetchCommit } from './fetchCommit';
import { subtreeId } from './subtreeId';

/**
 * Whether the tree at `subPath` is the same at commits `from` and `to` of `url` (both full SHAs):
 * a push that did not touch it leaves a track of that subPath applying exactly the same files.
 * Both commits are fetched into the clone for these credentials (bounded like any fetch: GitLimits
 * and `deadline`); a subPath missing at either commit counts as changed. When `readsOutside` says
 * the folder's files at either commit may pull in files from elsewhere in the repository (a
 * kustomization's bases), the whole root trees are compared instead. Throws what fetchCommit throws.
 */
export async function subtreeUnchanged(options: {
  url: string;
  auth?: GitAuth | undefined;
  subPath?: string | undefined;
  from: string;
  to: string;
  deadline?: number | undefined;
  cacheRoot?: string | undefined;
  limits?: GitLimits | undefined;
  readsOutside?: (fileNames: string[]) => boolean;
}): Promise<boolean> {
  const { url, subPath, from, to } = options;
  if (from === to) return true;
  const common = {
    url,
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
    ...(options.cacheRoot !== undefined ? { cacheRoot: options.cacheRoot } : {}),
    ...(options.limits !== undefined ? { limits: options.limits } : {}),
  };
  const later = await fetchCommit({ ...common, reference: to });
  const earlier = await fetchCommit({ ...common, reference: from });
  const [a, b] = await Promise.all([
    subtreeId(earlier.dir, earlier.commit, subPath ?? ''),
    subtreeId(later.dir, later.commit, subPath ?? ''),
  ]);
  if (a === undefined || b === undefined || a.oid !== b.oid) return false;
  const outside = options.readsOutside;
  if (outside && (outside(await a.blobs()) || outside(await b.blobs()))) return a.root === b.root;
  return true;
}
