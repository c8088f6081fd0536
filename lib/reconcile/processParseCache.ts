import type { ParseCache } from '../manifests';

// As many files as one read of a commit may read (LIGHTKEEPER_GIT_MAX_FILES' default): below it, a
// track of 50,000 files cleared the cache and parsed everything again on every run, and the old and
// new objects were resident together (151 MB more, +10 s, in a no-op of 50,000 objects).
const maxFiles = 50_000;
let cache: ParseCache = new Map();

/**
 * Parsed files by path and git blob id, kept for the life of the process: a warm function
 * container or a long CLI session re-reads an unchanged commit without parsing it again.
 * Entries are content-addressed, so they never go stale; the bound only limits memory. A run takes
 * it once and uses that map for its read and its parse.
 */
export function processParseCache(): ParseCache {
  // A new map, not clear(): a run that read its files against the old one (skipping the blobs
  // whose parse it holds) keeps parsing against it.
  if (cache.size > maxFiles) cache = new Map();
  return cache;
}
