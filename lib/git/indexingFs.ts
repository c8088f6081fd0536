// The file system isomorphic-git's fetch writes the clone through, indexing the received pack with
// Node's zlib and crypto (lib/git/indexPack.ts) instead of isomorphic-git's JavaScript inflate and
// hashing: 230–340 ms against 40–70 ms for the 2,000-file benchmark pack, most of a cold fetch's own time).
//
// isomorphic-git has no option to skip its indexing, and writing the pack is the last thing its fetch
// does (after the shallow file and refs): so the write of the pack file stores the pack and its
// index, then ends the fetch with PackIndexed, which fetchIndexed takes as success. Its protocol
// client is used unchanged; its HTTP transport asks for a thin pack (thinPack.ts), which is stored
// completed with the bases its deltas name (completeThinPack.ts). A pack whose checksum or objects
// do not verify is never stored.
//
// isomorphic-git reads connection settings from the clone's `.git/config` when the caller leaves
// them out: the file system serves it CLONE_CONFIG instead, whatever the file holds, and every
// connection setting is passed (GitConnection), so nothing on disk decides where a fetch goes.
import fs from 'node:fs';
import { dirname, join } from 'node:path';
import { fetch } from 'isomorphic-git';
import type { GitLimits } from '../settings/sourceLimits';
import { CLONE_CONFIG } from './cloneDir';
import { completeThinPack } from './completeThinPack';
import { FETCHED_REF } from './fetchedRef';
import { type GitConnection, remoteArgs } from './gitConnection';
import { overLimit } from './gitLimits';
import type { GitObject } from './gitObject';
import type { IndexedObjects } from './indexedObjects';
import { indexPack } from './indexPack';
import { openObjectStore } from './objectStore';
import { askingThinPacks } from './thinPack';

type FetchArgs = Omit<
  Parameters<typeof fetch>[0],
  'fs' | 'http' | 'url' | 'headers' | 'corsProxy' | 'remote' | 'onAuth'
> & { dir: string; connection: GitConnection };
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
  const { connection, ...rest } = args;
  try {
    return await fetch({
      ...rest,
      ref: FETCHED_REF,
      ...remoteArgs(connection),
      http: askingThinPacks(connection.http),
      fs: indexingFs(args.dir, connection.limits, connection.subject, indexed),
    });
  } catch (error) {
    if (error instanceof PackIndexed) return undefined;
    throw error;
  }
}

function indexingFs(
  dir: string,
  limits: GitLimits,
  subject: string,
  indexed: IndexedObjects | undefined,
): typeof fs {
  const configPath = join(dir, '.git', 'config');
  // isomorphic-git retries a failed write once (after creating the directory): the pack is stored
  // once, and a pack refused is refused again without indexing it twice.
  const outcomes = new Map<string, Error | 'stored'>();
  const writeFile = async (path: string, data: Uint8Array | string, options?: fs.WriteFileOptions) => {
    if (!PACK_FILE.test(path)) return fs.promises.writeFile(path, data, options);
    if (!outcomes.has(path)) {
      try {
        await storePack(path, Buffer.from(data as Uint8Array));
        outcomes.set(path, 'stored');
      } catch (error) {
        outcomes.set(path, error as Error);
      }
    }
    const outcome = outcomes.get(path);
    if (outcome instanceof Error) throw outcome;
    throw new PackIndexed('pack stored and indexed');
  };
  const storePack = async (path: string, pack: Buffer) => {
    const count = pack.length >= 12 ? pack.readUInt32BE(8) : 0;
    if (count > limits.maxObjects)
      throw overLimit('maxObjects', `${subject} sent a pack of ${count} objects`, limits.maxObjects, subject);
    const objects = await openObjectStore(dir);
    const bounds = { maxObjectBytes: limits.maxObjectBytes, subject };
    // The clone's objects a thin pack's deltas were resolved against: appended to it before it is stored.
    const bases = new Map<string, GitObject>();
    const outside = async (oid: string) => {
      const base = await objects.find(oid);
      if (base !== undefined) bases.set(oid, base);
      return base;
    };
    let idx = await indexPack(pack, outside, indexed?.add, bounds);
    let stored = pack;
    let storedAt = path;
    if (bases.size > 0) {
      stored = completeThinPack(pack, bases.values());
      idx = await indexPack(stored, async () => undefined, undefined, bounds);
      storedAt = join(dirname(path), `pack-${stored.subarray(stored.length - 20).toString('hex')}.pack`);
    }
    await fs.promises.writeFile(storedAt, stored);
    await fs.promises.writeFile(storedAt.replace(/\.pack$/, '.idx'), idx);
  };
  const readFile = (path: fs.PathLike, options?: unknown) =>
    path === configPath
      ? Promise.resolve(wantsText(options) ? CLONE_CONFIG : Buffer.from(CLONE_CONFIG))
      : fs.promises.readFile(path, options as Parameters<typeof fs.promises.readFile>[1]);
  return { promises: { ...fs.promises, writeFile, readFile } } as unknown as typeof fs;
}

function wantsText(options: unknown): boolean {
  return (
    typeof options === 'string' || typeof (options as { encoding?: unknown } | null)?.encoding === 'string'
  );
}
