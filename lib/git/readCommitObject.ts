import fs from 'node:fs';
import { readCommit, readObject, readTag } from 'isomorphic-git';
import { GitFetchError } from '../errors';
import { redactUrl } from './redactUrl';

/** The root tree of `commit` in the clone at `dir`; a GitFetchError when the commit is not there. */
export async function commitTree(dir: string, commit: string, cache: object): Promise<string> {
  try {
    return (await readCommit({ fs, dir, oid: commit, cache })).commit.tree;
  } catch (error) {
    throw new GitFetchError(`commit ${commit} is not available in ${dir}`, { subject: dir, cause: error });
  }
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
