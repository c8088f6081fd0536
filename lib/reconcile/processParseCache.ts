import { cacheOfFiles, type ManifestFile, type ParseCache } from '../manifests';
import type { GitLimits } from '../settings/sourceLimits';

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

/**
 * The cache a whole read of a commit (`files`, as read against `read`) parses against. Parsed YAML
 * takes about 20 times its size, and one read may be as large as its limits allow: a cache that
 * kept another track's or an older commit's parses beside this one's would hold two such reads at
 * once (32 MiB of files each by default: over a 1,024 MB function). So when what the cache holds
 * and the files it does not hold yet would pass one read's limits (files or bytes), the process
 * keeps only what this commit reuses. A new map again: a run still parsing against the old one keeps it.
 */
export function parseCacheForRead(
  read: ParseCache,
  files: ReadonlyArray<ManifestFile>,
  limits: Pick<GitLimits, 'maxFiles' | 'maxReadBytes'>,
): ParseCache {
  let newFiles = 0;
  let newBytes = 0;
  for (const file of files) {
    if (file.unread) continue;
    newFiles += 1;
    newBytes += file.content.length;
  }
  let heldBytes = 0;
  for (const entry of read.values()) heldBytes += entry.bytes ?? 0;
  if (read.size + newFiles <= limits.maxFiles && heldBytes + newBytes <= limits.maxReadBytes) return read;
  const kept = cacheOfFiles(read, files);
  if (read === cache) cache = kept;
  return kept;
}
