import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/**
 * Copies the project's tree as a fresh clone of it would be (the tracked files and the new ones
 * git does not ignore, with their uncommitted changes; no build output) into `dir`, with the
 * project's node_modules linked in as `npm ci` would have installed them.
 */
export function freshClone(dir: string): string {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f !== '' && f !== 'node_modules');
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    // A file deleted but not yet staged is listed and gone: a clone of the tree would not have it.
    try {
      copyFileSync(join(root, file), join(dir, file));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}
