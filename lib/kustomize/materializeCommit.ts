import fs from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readBlob, readTree } from 'isomorphic-git';
import { commitTree } from '../git/readCommitObject';

const SYMLINK_MODE = '120000';

/**
 * Writes the whole tree of `commit` (from a clone's object store) into the empty directory `into`:
 * kustomize reads bases, patches and generator inputs anywhere in the repository. Symlinks are
 * written as symlinks (kustomize-render refuses any that leads out of `into`); submodules are skipped.
 */
export async function materializeCommit(options: {
  dir: string;
  commit: string;
  into: string;
}): Promise<void> {
  const { dir, commit, into } = options;
  const cache = {};
  const treeOid = await commitTree(dir, commit);
  const pending: Array<{ oid: string; at: string }> = [{ oid: treeOid, at: into }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    await mkdir(next.at, { recursive: true });
    for (const entry of (await readTree({ fs, dir, oid: next.oid, cache })).tree) {
      const at = join(next.at, entry.path);
      if (entry.type === 'tree') pending.push({ oid: entry.oid, at });
      else if (entry.type === 'blob') {
        const { blob } = await readBlob({ fs, dir, oid: entry.oid, cache });
        if (entry.mode === SYMLINK_MODE) await symlink(Buffer.from(blob).toString('utf8'), at);
        else await writeFile(at, blob);
      }
    }
  }
}
