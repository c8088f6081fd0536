// The stamp beside the CLI bundle: which build is current and the exact mtime and size of every
// file it was built from. The bundle is fresh while each of those files still has them: an edit, a
// `git checkout`, a deletion or a restored older copy all change one, and no file is read whole.
// (A new file matters only once some source imports it, and that import changes the importer.)
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const stampVersion = 1;

/**
 * @typedef {[path: string, mtimeMs: number, size: number]} InputStat  path relative to the root
 * @typedef {{ version: number, build: string, sourcemaps: boolean, inputs: InputStat[] }} BundleStamp
 */

/** @returns {InputStat | undefined} undefined when the file does not exist */
export function statInput(root, path) {
  const s = statSync(join(root, path), { throwIfNoEntry: false });
  return s && [path, s.mtimeMs, s.size];
}

/** @returns {BundleStamp | undefined} */
export function readStamp(stampFile) {
  try {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    return stamp.version === stampVersion ? stamp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why the bundle named by `stamp` is stale, or undefined when it is fresh.
 * @param {{ sourcemaps?: boolean }} [need] source maps are needed (a --debug run)
 */
export function staleReason(root, stamp, need = {}) {
  if (!stamp) return 'no bundle yet';
  if (need.sourcemaps && !stamp.sourcemaps) return 'source maps asked for';
  for (const [path, mtimeMs, size] of stamp.inputs) {
    const now = statInput(root, path);
    if (!now) return `${path} was removed`;
    if (now[1] !== mtimeMs || now[2] !== size) return `${path} changed`;
  }
  return undefined;
}

/** Replaces the stamp atomically: a reader sees the old stamp or the new one, never half of one. */
export function writeStamp(stampFile, stamp) {
  const tmp = `${stampFile}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(stamp)}\n`);
  renameSync(tmp, stampFile);
}
