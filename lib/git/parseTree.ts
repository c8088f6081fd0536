// Git's tree object: entries of `<mode> <name>\0<20-byte id>`.

export interface TreeEntry {
  /** Six digits, as isomorphic-git spells it: `100644`, `100755`, `120000`, `040000`, `160000`. */
  mode: string;
  path: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

/** The entries of a tree object's content; throws an Error when it is malformed. */
export function parseTree(content: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = space < 0 ? -1 : content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > content.length)
      throw new Error(`tree entry at byte ${at} is truncated`);
    const mode = content.toString('latin1', at, space).padStart(6, '0');
    const path = content.toString('utf8', space + 1, nul);
    const oid = content.toString('hex', nul + 1, nul + 21);
    const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    entries.push({ mode, path, oid, type });
    at = nul + 21;
  }
  return entries;
}
