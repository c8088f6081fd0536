import type { ObjectStore } from './objectStore';
import type { TreeEntry } from './parseTree';
import { readTree } from './readTypedObject';

/** One file that differs between two trees, by repository path; the blob ids on each side. */
export interface FileChange {
  path: string;
  /** The blob before (absent: added). */
  from?: string;
  /** The blob after (absent: deleted). */
  to?: string;
}

export interface DiffTreesOptions {
  objects: ObjectStore;
  /** The clone, named in errors. */
  dir: string;
  /** Repository path of the two trees ('' the root). */
  at?: string;
  /** Which files count (by name): a file of another name is neither added, changed nor deleted. */
  counts: (entry: TreeEntry) => boolean;
  /** Stop past this many changed files: the answer is then undefined. */
  maxChanges: number;
  /** Called with the entry count of every tree read (a read budget). */
  onTree?: (path: string, entries: number) => void;
}

/**
 * The files that differ between trees `from` and `to` (undefined: no tree), sorted by path. Pure
 * over the object store: a subtree whose id is the same on both sides is not read at all, so the
 * cost follows the change, not the repository. A name that is a tree on one side and a file on the
 * other is both a subtree to walk and a file added or deleted. Undefined past `maxChanges`.
 */
export async function diffTrees(
  from: string | undefined,
  to: string | undefined,
  options: DiffTreesOptions,
): Promise<FileChange[] | undefined> {
  const changes: FileChange[] = [];
  const pending: Array<{ from: string | undefined; to: string | undefined; at: string }> = [
    { from, to, at: options.at ?? '' },
  ];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.from === next.to) continue;
    const [before, after] = await Promise.all([entriesOf(next.from, next.at), entriesOf(next.to, next.at)]);
    for (const name of new Set([...before.keys(), ...after.keys()])) {
      const a = before.get(name);
      const b = after.get(name);
      if (a?.oid === b?.oid && a?.mode === b?.mode) continue;
      const path = next.at === '' ? name : `${next.at}/${name}`;
      const treeA = a?.type === 'tree' ? a.oid : undefined;
      const treeB = b?.type === 'tree' ? b.oid : undefined;
      if (treeA !== treeB) pending.push({ from: treeA, to: treeB, at: path });
      const fileA = a && options.counts(a) ? a.oid : undefined;
      const fileB = b && options.counts(b) ? b.oid : undefined;
      if (fileA === fileB) continue;
      changes.push({ path, ...(fileA ? { from: fileA } : {}), ...(fileB ? { to: fileB } : {}) });
      if (changes.length > options.maxChanges) return undefined;
    }
  }
  return changes.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));

  async function entriesOf(oid: string | undefined, at: string): Promise<Map<string, TreeEntry>> {
    if (oid === undefined) return new Map();
    const entries = await readTree(options.objects, options.dir, oid, at);
    options.onTree?.(at, entries.length);
    return new Map(entries.map((e) => [e.path, e]));
  }
}
