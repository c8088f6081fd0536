import type { ParseCache } from '../manifests';

const maxFiles = 20_000;
const cache: ParseCache = new Map();

/**
 * Parsed files by path and git blob id, kept for the life of the process: a warm function
 * container or a long CLI session re-reads an unchanged commit without parsing it again.
 * Entries are content-addressed, so they never go stale; the bound only limits memory.
 */
export function processParseCache(): ParseCache {
  if (cache.size > maxFiles) cache.clear();
  return cache;
}
