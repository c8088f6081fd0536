// Git's tree object: entries of `<mode> <name>\0<20-byte id>`.
import { showEntryName, treeEntryNameRefusal } from './treeEntryName';

export interface TreeEntry {
  /** Six digits, as isomorphic-git spells it: `100644`, `100755`, `120000`, `040000`, `160000`. */
  mode: string;
  /** The entry's name: one path component (never empty, `.`, `..`, `.git`, never with `/`). */
  path: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

/** A tree entry git's fsck would refuse: the commit holding it is broken. */
export class RefusedTreeEntry extends Error {
  constructor(
    /** Repository path of the entry (its tree's path, then its name). */
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'RefusedTreeEntry';
  }
}

/** Regular files in any permission git ever wrote (fsck tolerates 100664), symlinks, trees, gitlinks. */
const MODE = /^(?:100[0-7]{3}|120000|0?40000|160000)$/;

/**
 * The entries of a tree object's content; `at` is the tree's repository path, named in errors.
 * Throws a RefusedTreeEntry for a name git's fsck refuses (see treeEntryName) or one that repeats
 * in the tree, and an Error when the tree is malformed.
 */
export function parseTree(content: Buffer, at = ''): TreeEntry[] {
  const entries: TreeEntry[] = [];
  const names = new Set<string>();
  let offset = 0;
  while (offset < content.length) {
    const space = content.indexOf(0x20, offset);
    const nul = space < 0 ? -1 : content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > content.length)
      throw new Error(`tree entry at byte ${offset} is truncated`);
    const rawMode = content.toString('latin1', offset, space);
    if (!MODE.test(rawMode))
      throw new Error(
        `tree entry at byte ${offset} has mode ${JSON.stringify(rawMode)}, which git never writes`,
      );
    const mode = rawMode.padStart(6, '0');
    const path = content.toString('utf8', space + 1, nul);
    const refusal = treeEntryNameRefusal(path) ?? (names.has(path) ? 'appears twice in its tree' : undefined);
    if (refusal !== undefined) {
      // Decoded names are compared: two byte strings that decode alike would be written to one file.
      const where = at === '' ? 'the repository root' : at;
      throw new RefusedTreeEntry(
        at === '' ? path : `${at}/${path}`,
        `tree entry ${showEntryName(path)} in ${where} ${refusal}`,
      );
    }
    names.add(path);
    const oid = content.toString('hex', nul + 1, nul + 21);
    const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    entries.push({ mode, path, oid, type });
    offset = nul + 21;
  }
  return entries;
}
