import type { GitAuth } from './authHeaders';
import { fetchCommit } from './fetchCommit';
import { subtreeId } from './subtreeId';

/**
 * Whether the tree at `subPath` is the same at commits `from` and `to` of `url` (both full SHAs):
 * a push that did not touch it leaves a track of that subPath applying exactly the same files.
 * Both commits are fetched into the clone for these credentials (bounded like any fetch: GitLimits
 * and `deadline`); a subPath missing at either commit counts as changed. Throws what fetchCommit
 * throws.
 */
export async function subtreeUnchanged(options: {
  url: string;
  auth?: GitAuth | undefined;
  subPath?: string | undefined;
  from: string;
  to: string;
  deadline?: number | undefined;
  cacheRoot?: string | undefined;
}): Promise<boolean> {
  const { url, subPath, from, to } = options;
  if (from === to) return true;
  const common = {
    url,
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
    ...(options.cacheRoot !== undefined ? { cacheRoot: options.cacheRoot } : {}),
  };
  const later = await fetchCommit({ ...common, reference: to });
  const earlier = await fetchCommit({ ...common, reference: from });
  const [a, b] = await Promise.all([
    subtreeId(earlier.dir, earlier.commit, subPath ?? ''),
    subtreeId(later.dir, later.commit, subPath ?? ''),
  ]);
  return a !== undefined && a === b;
}
