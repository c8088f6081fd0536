import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { join } from 'node:path';
import { GitFetchError } from '../errors';

export const SALT_FILE = 'lightkeeper-salt';
const SALT_BYTES = 32;

/**
 * The random key of the cache at `cacheRoot`, created on first use (root 0700, file 0600). Clone
 * names are HMACs under it, so a name tells nothing about the credentials it was fetched with to
 * anyone who cannot read this file. Concurrent first uses agree: the file appears atomically
 * (link of a complete temporary file) and the loser reads the winner's.
 *
 * The root must be this user's own directory that no one else may write to (not a link): in a
 * shared temp dir another user could otherwise create it first and plant the key and clones.
 */
export function cacheSalt(cacheRoot: string): Buffer {
  fs.mkdirSync(cacheRoot, { recursive: true, mode: 0o700 });
  refuseForeignRoot(cacheRoot);
  const path = join(cacheRoot, SALT_FILE);
  const existing = readSalt(path);
  if (existing) return existing;
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  fs.writeFileSync(temporary, randomBytes(SALT_BYTES), { mode: 0o600 });
  try {
    fs.linkSync(temporary, path);
  } catch (error) {
    // A salt of the wrong size cannot come from here; replace it (clones under it are only missed).
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (!readSalt(path)) fs.renameSync(temporary, path);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  const salt = readSalt(path);
  if (!salt) throw new GitFetchError(`could not create the clone cache key ${path}`, { subject: path });
  return salt;
}

function refuseForeignRoot(cacheRoot: string): void {
  const stat = fs.lstatSync(cacheRoot);
  const problem = !stat.isDirectory()
    ? 'is not a directory (a link?)'
    : process.getuid !== undefined && stat.uid !== process.getuid()
      ? 'belongs to another user'
      : (stat.mode & 0o022) !== 0
        ? 'may be written to by other users'
        : undefined;
  if (problem !== undefined)
    throw new GitFetchError(`the clone cache ${cacheRoot} ${problem}: refusing to use it`, {
      subject: cacheRoot,
      hint: 'remove it, or choose another cache directory',
    });
}

function readSalt(path: string): Buffer | undefined {
  try {
    const salt = fs.readFileSync(path);
    return salt.length === SALT_BYTES ? salt : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
