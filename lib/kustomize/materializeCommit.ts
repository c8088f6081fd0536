import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { CommitReadBudget } from '../git/commitReadBudget';
import { type GitLimits, gitLimitsFromEnv } from '../git/gitLimits';
import { openObjectStore } from '../git/objectStore';
import { commitTree } from '../git/readCommitObject';
import { readBlob, readTree } from '../git/readTypedObject';

const SYMLINK_MODE = '120000';

/**
 * Writes the whole tree of `commit` (from a clone's object store) into the empty directory `into`:
 * kustomize reads bases, patches and generator inputs anywhere in the repository. Symlinks are
 * written as symlinks (kustomize-render refuses any that leads out of `into`); submodules are skipped.
 * Bounded like readManifestFiles (a GitLimitError past a read limit).
 */
export async function materializeCommit(options: {
  dir: string;
  commit: string;
  into: string;
  limits?: GitLimits;
}): Promise<void> {
  const { dir, commit, into } = options;
  const objects = await openObjectStore(dir);
  const budget = new CommitReadBudget(options.limits ?? gitLimitsFromEnv(), commit);
  const treeOid = await commitTree(dir, commit, objects);
  const pending: Array<{ oid: string; at: string }> = [{ oid: treeOid, at: into }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    await mkdir(next.at, { recursive: true });
    const entries = await readTree(objects, dir, next.oid);
    budget.visitTree(relative(into, next.at), entries.length);
    for (const entry of entries) {
      const at = join(next.at, entry.path);
      if (entry.type === 'tree') pending.push({ oid: entry.oid, at });
      else if (entry.type === 'blob') {
        budget.openFile(relative(into, at));
        const blob = await readBlob(objects, dir, entry.oid);
        budget.readFile(relative(into, at), blob.length);
        if (entry.mode === SYMLINK_MODE) await symlink(Buffer.from(blob).toString('utf8'), at);
        else await writeFile(at, blob);
      }
    }
  }
}
