import { GitFetchError } from '../errors';
import { DEFAULT_GIT_LIMITS, type GitLimits } from '../settings/sourceLimits';
import { CommitReadBudget } from './commitReadBudget';
import type { IndexedObjects } from './indexedObjects';
import { openObjectStore } from './objectStore';
import { commitTree } from './readCommitObject';
import { readBlob, readTree } from './readTypedObject';
import { validateSubPath } from './validateSubPath';

export interface ReadManifestFilesOptions {
  /** A clone returned by fetchCommit. */
  dir: string;
  commit: string;
  /** Directory to read, relative to the repository root; default the root. */
  subPath?: string;
  /** fetchCommit's `indexed`: the objects it just fetched, read from memory. */
  indexed?: IndexedObjects;
  /** What the read may cost (tree entries, files, bytes); default: the defaults. */
  limits?: GitLimits;
  /**
   * The size of a file whose parse the caller already holds (by path and blob id), else undefined:
   * such a file is counted against the limits but not read (`unread`, empty content).
   */
  known?: (path: string, oid: string) => number | undefined;
}

export interface ManifestFile {
  /** Repository-relative, `/`-separated. */
  path: string;
  content: Uint8Array;
  /** The blob's id: the same id is the same content, so parsed results can be reused. */
  oid: string;
  /** Skipped: `known` gave its size (content is empty; parseManifests fails if its cache misses). */
  unread?: true;
}

const empty = new Uint8Array(0);

const MANIFEST_NAME = /\.(ya?ml|json)$/i;
const SYMLINK_MODE = '120000';

/**
 * The `.yaml`, `.yml` and `.json` files under `subPath` at `commit`, recursively and sorted by path,
 * read from the clone's packs (nothing is checked out). Symlinks and submodules are skipped. A
 * subPath missing at that commit is an error, never an empty result. A commit over a read limit
 * is a GitLimitError (see CommitReadBudget).
 */
export async function readManifestFiles(options: ReadManifestFilesOptions): Promise<ManifestFile[]> {
  const { dir, commit } = options;
  const subPath = options.subPath ?? '';
  const segments = validateSubPath(subPath);
  const objects = await openObjectStore(dir, options.indexed);
  const budget = new CommitReadBudget(options.limits ?? DEFAULT_GIT_LIMITS, commit);

  let treeOid = await commitTree(dir, commit, objects);
  for (const [index, name] of segments.entries()) {
    const parent = segments.slice(0, index).join('/');
    const entry = (await readTree(objects, dir, treeOid, parent)).find((e) => e.path === name);
    const soFar = segments.slice(0, index + 1).join('/');
    if (entry === undefined) {
      throw new GitFetchError(`subPath ${subPath} does not exist at commit ${commit}`, { subject: dir });
    }
    if (entry.type !== 'tree') {
      throw new GitFetchError(`subPath ${subPath} is not a directory at commit ${commit} (${soFar} is not)`, {
        subject: dir,
      });
    }
    treeOid = entry.oid;
  }

  const files: ManifestFile[] = [];
  const pending: Array<{ oid: string; prefix: string }> = [{ oid: treeOid, prefix: segments.join('/') }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const entries = await readTree(objects, dir, next.oid, next.prefix);
    budget.visitTree(next.prefix, entries.length);
    for (const entry of entries) {
      const path = next.prefix === '' ? entry.path : `${next.prefix}/${entry.path}`;
      if (entry.type === 'tree') pending.push({ oid: entry.oid, prefix: path });
      else if (entry.type === 'blob' && entry.mode !== SYMLINK_MODE && MANIFEST_NAME.test(entry.path)) {
        budget.openFile(path);
        const size = options.known?.(path, entry.oid);
        if (size !== undefined) {
          budget.readFile(path, size);
          files.push({ path, oid: entry.oid, content: empty, unread: true });
          continue;
        }
        const content = await readBlob(objects, dir, entry.oid);
        budget.readFile(path, content.length);
        files.push({ path, oid: entry.oid, content });
      }
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
