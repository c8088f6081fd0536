// The file system isomorphic-git's fetch writes the clone through, indexing the received pack with
// Node's zlib and crypto (lib/git/indexPack.ts) instead of isomorphic-git's JavaScript inflate and
// hashing: 230–340 ms against 40–70 ms for the 2,000-file benchmark pack, most of a cold fetch's own time).
//
// isomorphic-git has no option to skip its indexing, and writing the pack is the last thing its fetch
// does (after the shallow file and refs): so the write of the pack file stores the pack and its
// index, then ends the fetch with PackIndexed, which fetchIndexed takes as success. Its protocol
// client and HTTP transport are used unchanged. A pack whose checksum or objects do not verify is
// never stored.
import fs from 'node:fs';
import { fetch } from 'isomorphic-git';
import type { IndexedObjects } from './indexedObjects';
import { indexPack } from './indexPack';
import { openObjectStore } from './objectStore';

type FetchArgs = Omit<Parameters<typeof fetch>[0], 'fs'> & { dir: string };
type FetchResult = Awaited<ReturnType<typeof fetch>>;

const PACK_FILE = /[/\\]objects[/\\]pack[/\\]pack-[0-9a-f]{40}\.pack$/;

class PackIndexed extends Error {}

/**
 * isomorphic-git's fetch with the pack indexed natively. Returns its result, or `undefined` when a
 * pack arrived (the fetch ended with the pack stored): callers look at the clone instead. The
 * pack's objects go to `indexed` when given.
 */
export async function fetchIndexed(
  args: FetchArgs,
  indexed?: IndexedObjects,
): Promise<FetchResult | undefined> {
  try {
    return await fetch({ ...args, fs: indexingFs(args.dir, indexed) });
  } catch (error) {
    if (error instanceof PackIndexed) return undefined;
    throw error;
  }
}

function indexingFs(dir: string, indexed: IndexedObjects | undefined): typeof fs {
  const stored = new Set<string>();
  const writeFile = async (path: string, data: Uint8Array | string, options?: fs.WriteFileOptions) => {
    if (!PACK_FILE.test(path)) return fs.promises.writeFile(path, data, options);
    // isomorphic-git retries a failed write once (after creating the directory): the pack is stored once.
    if (!stored.has(path)) {
      const pack = Buffer.from(data as Uint8Array);
      const objects = await openObjectStore(dir);
      const idx = await indexPack(pack, (oid) => objects.find(oid), indexed?.add);
      await fs.promises.writeFile(path, pack);
      await fs.promises.writeFile(path.replace(/\.pack$/, '.idx'), idx);
      stored.add(path);
    }
    throw new PackIndexed('pack stored and indexed');
  };
  return { promises: { ...fs.promises, writeFile } } as unknown as typeof fs;
}
