import fs from 'node:fs';
import { readCommit, readObject, readTag } from 'isomorphic-git';
import { GitFetchError, hasCode } from '../errors';
import type { GitObject } from './gitObject';
import { type ObjectStore, openObjectStore } from './objectStore';
import { redactUrl } from './redactUrl';

/**
 * The root tree of `commit` in the clone at `dir`, read through `objects` (default: a store opened
 * for this one read); a GitFetchError when the commit is not there or is corrupt.
 */
export async function commitTree(dir: string, commit: string, objects?: ObjectStore): Promise<string> {
  let found: GitObject | undefined;
  try {
    found = await (objects ?? (await openObjectStore(dir))).find(commit);
  } catch (error) {
    if (hasCode(error, 'GitFetchError')) throw error;
    throw new GitFetchError(`commit ${commit} is not available in ${dir}`, { subject: dir, cause: error });
  }
  if (found === undefined)
    throw new GitFetchError(`commit ${commit} is not available in ${dir}`, { subject: dir });
  const tree =
    found.type === 'commit' ? /^tree ([0-9a-f]{40})\n/.exec(found.content.toString('latin1')) : null;
  if (tree === null)
    throw new GitFetchError(`${commit} in ${dir} is not a commit with a tree`, { subject: dir });
  return tree[1] as string;
}

export async function hasCommit(dir: string, oid: string): Promise<boolean> {
  try {
    await readCommit({ fs, dir, oid });
    return true;
  } catch {
    return false;
  }
}

/** Follows annotated tags from `oid` down to the commit they point at. */
export async function peelToCommit(
  dir: string,
  oid: string,
  reference: string,
  url: string,
): Promise<string> {
  const subject = redactUrl(url);
  let current = oid;
  for (let hops = 0; hops < 16; hops++) {
    const object = await readObject({ fs, dir, oid: current, format: 'content' });
    if (object.type === 'commit') return current;
    if (object.type !== 'tag') {
      throw new GitFetchError(`${reference} in ${subject} points to a ${object.type}, not a commit`, {
        subject,
      });
    }
    current = (await readTag({ fs, dir, oid: current })).tag.object;
  }
  throw new GitFetchError(`${reference} in ${subject} nests too many tags`, { subject });
}
