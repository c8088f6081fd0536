// One clone per URL and credentials under the cache root. A clone counts as usable only while its
// completion marker exists: the marker is removed before every fetch and written back after a
// successful one, so a fetch that died half-way (even with the process) leaves a clone that will be
// re-created.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { init } from 'isomorphic-git';
import { authHeaders, type GitAuth } from './authHeaders';
import { cacheSalt } from './cacheSalt';

export const COMPLETE_MARKER = 'lightkeeper-complete';

/**
 * The one `.git/config` of every clone. isomorphic-git reads where to connect from the config when
 * a caller leaves a setting out (`http.corsProxy`, `remote.origin.url`, `branch.*`, refspecs), so a
 * fetch never reads the file: it is given this text instead (indexingFs.ts), and the file on disk
 * is only for people looking at the clone with git.
 */
export const CLONE_CONFIG = [
  '[core]',
  '\trepositoryformatversion = 0',
  '\tfilemode = false',
  '\tbare = false',
  '\tlogallrefupdates = true',
  '\tsymlinks = false',
  '\tignorecase = true',
  '[remote "origin"]',
  // isomorphic-git insists on a fetch refspec to record remote branches under.
  '\tfetch = +refs/heads/*:refs/remotes/origin/heads/*',
  '',
].join('\n');

/**
 * The clone of `url` fetched with `auth` (no credentials is a key of its own). A clone is served
 * without asking the server when it already holds a commit, so it must only ever serve a caller
 * that sends the very credentials its objects were fetched with: anyone else, knowing a SHA, could
 * read a private repository another track fetched. A rotating token is keyed by its `stableKey`
 * instead, so a re-minted token keeps the clone: whoever holds the same grant can mint the token.
 *
 * Fetches are serialized per clone only within one JavaScript realm, so each worker thread gets its
 * own clone: serverless-offline runs concurrent invocations in worker threads of one process, which
 * share the temp dir. Lambda runs handlers on the main thread, where the path stays stable and a
 * clone survives a runtime restart in the same container.
 */
export function cloneDirFor(url: string, cacheRoot: string, auth: GitAuth | undefined): string {
  const credentials =
    auth?.type === 'token' && auth.stableKey
      ? `stable ${auth.stableKey}`
      : (authHeaders(auth).Authorization ?? null);
  const name = createHmac('sha256', cacheSalt(cacheRoot))
    .update(JSON.stringify([url, credentials]))
    .digest('hex')
    .slice(0, 32);
  return join(cacheRoot, threadId === 0 ? name : `${name}-${process.pid}-${threadId}`);
}

function markerPath(dir: string): string {
  return join(dir, '.git', COMPLETE_MARKER);
}

/** Whether `dir` holds a clone a fetch completed: its `.git` a directory of its own (no link, no `gitdir:` file). */
export function isCloneComplete(dir: string): boolean {
  try {
    return fs.lstatSync(join(dir, '.git')).isDirectory() && fs.existsSync(markerPath(dir));
  } catch {
    return false;
  }
}

/**
 * Each fetch into a clone adds a pack of what its commit changed (thinPack.ts), and every read
 * looks an object up in each pack: past this many, the next fetch starts a new clone instead.
 */
export const MAX_CLONE_PACKS = 32;

/**
 * Readies `dir` for a fetch: keeps a complete clone (now marked incomplete) of at most
 * MAX_CLONE_PACKS packs, re-creates anything else.
 */
export async function openCloneDir(dir: string): Promise<void> {
  if (isCloneComplete(dir) && (await packCount(dir)) <= MAX_CLONE_PACKS) {
    await fs.promises.rm(markerPath(dir));
    return;
  }
  await resetCloneDir(dir);
}

async function packCount(dir: string): Promise<number> {
  const names = await fs.promises.readdir(join(dir, '.git', 'objects', 'pack')).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.idx')).length;
}

export async function resetCloneDir(dir: string): Promise<void> {
  await discardCloneDir(dir);
  await fs.promises.mkdir(dir, { recursive: true });
  await init({ fs, dir, defaultBranch: 'main' });
  await fs.promises.writeFile(join(dir, '.git', 'config'), CLONE_CONFIG);
}

export async function markCloneComplete(dir: string): Promise<void> {
  await fs.promises.writeFile(markerPath(dir), `${new Date().toISOString()}\n`);
}

export async function discardCloneDir(dir: string): Promise<void> {
  await fs.promises.rm(dir, { recursive: true, force: true });
}
