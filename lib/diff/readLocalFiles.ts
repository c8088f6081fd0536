import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../errors';
import type { ManifestFile } from '../git';
import { validateSubPath } from '../git/validateSubPath';

const MANIFEST_NAME = /\.(ya?ml|json)$/i;

/**
 * A working tree's manifest files under `subPath`, as readManifestFiles gives a commit's: the
 * `.yaml`, `.yml` and `.json` files, recursively, sorted, paths relative to `dir`, symlinks skipped,
 * `.git` skipped, each with its git blob id.
 */
export async function readLocalFiles(dir: string, subPath: string): Promise<ManifestFile[]> {
  const segments = validateSubPath(subPath);
  const root = join(dir, ...segments);
  const info = await lstat(root).catch(() => undefined);
  if (!info?.isDirectory()) throw new ConfigError(`${root} is not a directory`, { subject: root });
  const files: ManifestFile[] = [];
  const pending = [segments.join('/')];
  for (let prefix = pending.pop(); prefix !== undefined; prefix = pending.pop()) {
    for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory() && entry.name !== '.git') pending.push(path);
      else if (entry.isFile() && MANIFEST_NAME.test(entry.name)) {
        const content = new Uint8Array(await readFile(join(dir, path)));
        files.push({ path, content, oid: blobId(content) });
      }
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const blobId = (content: Uint8Array) =>
  createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
