import { DEFAULT_GIT_LIMITS, type GitLimits } from '../settings/sourceLimits';
import { CommitReadBudget } from './commitReadBudget';
import { diffTrees, type FileChange } from './diffTrees';
import type { IndexedObjects } from './indexedObjects';
import { type ObjectStore, openObjectStore } from './objectStore';
import type { TreeEntry } from './parseTree';
import { commitTree } from './readCommitObject';
import type { ManifestFile } from './readManifestFiles';
import { readBlob, readTree } from './readTypedObject';
import { validateSubPath } from './validateSubPath';

export interface ReadChangedFilesOptions {
  /** A clone holding both commits. */
  dir: string;
  /** The commit applied before, and the commit to apply. */
  from: string;
  to: string;
  subPath?: string;
  /** fetchCommit's `indexed` for `to`. */
  indexed?: IndexedObjects | undefined;
  limits?: GitLimits | undefined;
  /** More changed manifest files than this: the answer is `tooMany`. */
  maxChanges: number;
}

/** What changed under subPath between two commits: each manifest file's version before and after. */
export interface ChangedFiles {
  /** The names directly under subPath at each commit (what decides whether it is rendered). */
  names: { from: string[]; to: string[] };
  /** Files at `to` that are new or changed: their content at `to`. */
  after: ManifestFile[];
  /** Files at `from` that are changed or deleted: their content at `from`. */
  before: ManifestFile[];
  /** Every path that differs (added, changed, deleted). */
  paths: string[];
  /** Any other manifest file of `to` by repository path (undefined: none there). */
  fileAt: (path: string) => Promise<ManifestFile | undefined>;
}

const MANIFEST_NAME = /\.(ya?ml|json)$/i;
const SYMLINK_MODE = '120000';
/** The files readManifestFiles reads: `.yaml`, `.yml`, `.json`, never a symlink. */
const isManifestFile = (e: TreeEntry) =>
  e.type === 'blob' && e.mode !== SYMLINK_MODE && MANIFEST_NAME.test(e.path);

/**
 * The manifest files that differ under `subPath` between `from` and `to` (lib/git/diffTrees.ts:
 * unchanged subtrees are not read), with both versions of each; `tooMany` past `maxChanges`;
 * undefined when subPath is not a directory at either commit. Bounded like readManifestFiles by
 * the read limits of `to`. Throws what readManifestFiles throws.
 */
export async function readChangedFiles(
  options: ReadChangedFilesOptions,
): Promise<ChangedFiles | 'tooMany' | undefined> {
  const { dir } = options;
  const objects = await openObjectStore(dir, options.indexed);
  const segments = validateSubPath(options.subPath ?? '');
  const at = segments.join('/');
  const [fromTree, toTree] = await Promise.all([
    subtree(objects, dir, options.from, segments),
    subtree(objects, dir, options.to, segments),
  ]);
  if (fromTree === undefined || toTree === undefined) return undefined;
  const budget = new CommitReadBudget(options.limits ?? DEFAULT_GIT_LIMITS, options.to);
  const changes = await diffTrees(fromTree, toTree, {
    objects,
    dir,
    at,
    counts: isManifestFile,
    maxChanges: options.maxChanges,
    onTree: (path, entries) => budget.visitTree(path, entries),
  });
  if (changes === undefined) return 'tooMany';
  const names = async (tree: string) => (await readTree(objects, dir, tree, at)).map((e) => e.path);
  const read = async (c: FileChange, oid: string): Promise<ManifestFile> => {
    budget.openFile(c.path);
    const content = await readBlob(objects, dir, oid);
    budget.readFile(c.path, content.length);
    return { path: c.path, oid, content };
  };
  const after: ManifestFile[] = [];
  const before: ManifestFile[] = [];
  for (const c of changes) {
    if (c.to) after.push(await read(c, c.to));
    if (c.from) before.push(await read(c, c.from));
  }
  return {
    names: { from: await names(fromTree), to: await names(toTree) },
    after,
    before,
    paths: changes.map((c) => c.path),
    fileAt: async (path) => {
      const parts = path.split('/');
      const name = parts.pop() as string;
      const tree = await subtree(objects, dir, options.to, parts);
      const entry =
        tree && (await readTree(objects, dir, tree, parts.join('/'))).find((e) => e.path === name);
      return entry && isManifestFile(entry) ? read({ path }, entry.oid) : undefined;
    },
  };
}

/** The tree at `segments` of `commit`, or undefined when no directory is there. */
async function subtree(
  objects: ObjectStore,
  dir: string,
  commit: string,
  segments: string[],
): Promise<string | undefined> {
  let tree = await commitTree(dir, commit, objects);
  for (const [index, name] of segments.entries()) {
    const entry = (await readTree(objects, dir, tree, segments.slice(0, index).join('/'))).find(
      (e) => e.path === name,
    );
    if (entry?.type !== 'tree') return undefined;
    tree = entry.oid;
  }
  return tree;
}
