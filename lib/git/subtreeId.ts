import { openObjectStore } from './objectStore';
import { commitTree } from './readCommitObject';
import { readTree } from './readTypedObject';
import { validateSubPath } from './validateSubPath';

/**
 * The id of the tree at `subPath` of `commit` in the clone at `dir` (the root tree for `''`), or
 * undefined when nothing (or no directory) is there; with the names of its blobs when `names` is
 * asked for. Reads only the trees on the way down: two commits whose ids agree hold exactly the
 * same files under `subPath`.
 */
export async function subtreeId(
  dir: string,
  commit: string,
  subPath = '',
): Promise<{ oid: string; root: string; blobs: () => Promise<string[]> } | undefined> {
  const segments = validateSubPath(subPath);
  const objects = await openObjectStore(dir);
  const root = await commitTree(dir, commit, objects);
  let treeOid = root;
  for (const [index, name] of segments.entries()) {
    const parent = segments.slice(0, index).join('/');
    const entry = (await readTree(objects, dir, treeOid, parent)).find((e) => e.path === name);
    if (entry?.type !== 'tree') return undefined;
    treeOid = entry.oid;
  }
  const oid = treeOid;
  const blobs = async () =>
    (await readTree(objects, dir, oid, subPath)).filter((e) => e.type === 'blob').map((e) => e.path);
  return { oid, root, blobs };
}
