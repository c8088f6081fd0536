import fs from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readCommit, readTree } from 'isomorphic-git';
import { validateSubPath } from '../git/validateSubPath';
import { kustomizationFileIn } from './kustomizationFile';

/** A commit in a clone (objects only), or a working tree on disk. */
export type KustomizeSource =
  | { kind: 'commit'; dir: string; commit: string }
  | { kind: 'local'; dir: string };

/** The kustomization file directly in `subPath` (`kustomization.yaml`, `.yml` or `Kustomization`), if any. */
export async function findKustomization(
  source: KustomizeSource,
  subPath: string,
): Promise<string | undefined> {
  const segments = validateSubPath(subPath);
  if (source.kind === 'local') {
    const names = await readdir(join(source.dir, ...segments)).catch(() => []);
    return kustomizationFileIn(names);
  }
  const cache = {};
  let oid = (await readCommit({ fs, dir: source.dir, oid: source.commit, cache })).commit.tree;
  for (const name of segments) {
    const entry = (await readTree({ fs, dir: source.dir, oid, cache })).tree.find((e) => e.path === name);
    if (entry?.type !== 'tree') return undefined;
    oid = entry.oid;
  }
  const entries = (await readTree({ fs, dir: source.dir, oid, cache })).tree;
  return kustomizationFileIn(entries.filter((e) => e.type === 'blob').map((e) => e.path));
}
