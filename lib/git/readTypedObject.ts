// Trees and blobs of a clone by id, through an ObjectStore, with errors naming the clone and object.
import { GitFetchError, isLightkeeperError } from '../errors';
import { damagedCloneError } from './damagedClone';
import type { ObjectStore } from './objectStore';
import { parseTree, RefusedTreeEntry, type TreeEntry } from './parseTree';

/**
 * The entries of tree `oid`; `at` is its repository path. An entry git's fsck refuses (`..`, `.git`,
 * a name twice, ...) is a GitFetchError naming the entry's path: the commit is broken.
 */
export async function readTree(
  objects: ObjectStore,
  dir: string,
  oid: string,
  at = '',
): Promise<TreeEntry[]> {
  const content = await readTyped(objects, dir, oid, 'tree');
  try {
    return parseTree(content, at);
  } catch (error) {
    if (error instanceof RefusedTreeEntry) {
      throw new GitFetchError(
        `${error.message} (tree ${oid}): git refuses such a tree, and so does lightkeeper`,
        {
          subject: error.path,
          cause: error,
        },
      );
    }
    throw new GitFetchError(`tree ${oid} in the clone ${dir} is corrupt`, { subject: dir, cause: error });
  }
}

/** A plain Uint8Array of its own, as ManifestFile promises (not a Buffer that may share a pool). */
export async function readBlob(objects: ObjectStore, dir: string, oid: string): Promise<Uint8Array> {
  return new Uint8Array(await readTyped(objects, dir, oid, 'blob'));
}

/** The commit holds a tree git refuses (readTree's error): it is broken, as a commit that does not parse. */
export const isRefusedTree = (e: unknown): boolean =>
  isLightkeeperError(e) && e.cause instanceof RefusedTreeEntry;

async function readTyped(
  objects: ObjectStore,
  dir: string,
  oid: string,
  type: 'tree' | 'blob',
): Promise<Buffer> {
  const object = await objects.find(oid);
  if (object === undefined) {
    throw damagedCloneError(`${type} ${oid} is missing from the clone ${dir}`, dir);
  }
  if (object.type !== type) {
    throw new GitFetchError(`${oid} in the clone ${dir} is a ${object.type}, not a ${type}`, {
      subject: dir,
    });
  }
  return object.content;
}
