import { constants } from 'node:fs';
import { mkdir, open, symlink } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { GitFetchError } from '../errors';
import { CommitReadBudget } from '../git/commitReadBudget';
import { openObjectStore } from '../git/objectStore';
import { commitTree } from '../git/readCommitObject';
import { readBlob, readTree } from '../git/readTypedObject';
import { treeEntryNameRefusal } from '../git/treeEntryName';
import { DEFAULT_GIT_LIMITS, type GitLimits } from '../settings/sourceLimits';

const SYMLINK_MODE = '120000';
/** Created, never opened: a symlink (or anything) already at the path fails the open. */
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * Writes the whole tree of `commit` (from a clone's object store) into `into`, which it creates and
 * which must not exist: kustomize reads bases, patches and generator inputs anywhere in the
 * repository. Symlinks are written as symlinks (kustomize-render refuses any that leads out of
 * `into`); submodules are skipped.
 *
 * Nothing is written outside `into`, even if the tree reader's name checks were missed: every
 * target resolves under it, every directory and file is created new (never opened, so never
 * through a symlink or onto something written before), and a repeated name fails. Bounded like
 * readManifestFiles (a GitLimitError past a read limit). With `only` (a directory of the tree, as
 * `a/b`), just that directory and the directories leading to it are written (a Helm chart reads
 * only its own files).
 */
export async function materializeCommit(options: {
  dir: string;
  commit: string;
  into: string;
  limits?: GitLimits;
  only?: string;
}): Promise<void> {
  const { dir, commit } = options;
  const only = options.only ?? '';
  const wanted = (path: string, isTree: boolean) =>
    only === '' || path === only || path.startsWith(`${only}/`) || (isTree && only.startsWith(`${path}/`));
  const root = resolve(options.into);
  const objects = await openObjectStore(dir);
  const budget = new CommitReadBudget(options.limits ?? DEFAULT_GIT_LIMITS, commit);
  const treeOid = await commitTree(dir, commit, objects);
  await create(root, '', () => mkdir(root));
  const pending: Array<{ oid: string; path: string }> = [{ oid: treeOid, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const entries = await readTree(objects, dir, next.oid, next.path);
    budget.visitTree(next.path, entries.length);
    for (const entry of entries) {
      const path = next.path === '' ? entry.path : `${next.path}/${entry.path}`;
      if (!wanted(path, entry.type === 'tree')) continue;
      const at = confined(root, path);
      if (entry.type === 'tree') {
        await create(at, path, () => mkdir(at));
        pending.push({ oid: entry.oid, path });
      } else if (entry.type === 'blob') {
        budget.openFile(path);
        const blob = await readBlob(objects, dir, entry.oid);
        budget.readFile(path, blob.length);
        if (entry.mode === SYMLINK_MODE)
          await create(at, path, () => symlink(Buffer.from(blob).toString('utf8'), at));
        else await create(at, path, () => writeNew(at, blob));
      }
    }
  }
}

/** Where the repository path `path` goes under `root`; refuses any that would land elsewhere. */
export function confined(root: string, path: string): string {
  const refused = path.split('/').find((name) => treeEntryNameRefusal(name) !== undefined);
  const at = resolve(root, path);
  if (refused !== undefined || !at.startsWith(root + sep)) {
    throw new GitFetchError(`refusing to write ${JSON.stringify(path)} outside the render's directory`, {
      subject: path,
    });
  }
  return at;
}

async function writeNew(at: string, content: Uint8Array): Promise<void> {
  const file = await open(at, CREATE_NEW, 0o644);
  try {
    await file.writeFile(content);
  } finally {
    await file.close();
  }
}

async function create(at: string, path: string, make: () => Promise<unknown>): Promise<void> {
  try {
    await make();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    const why = code === 'EEXIST' ? 'something is already there' : code;
    throw new GitFetchError(`cannot write ${JSON.stringify(path || '.')} for the render (${why}): ${at}`, {
      subject: path,
      cause: error,
    });
  }
}
