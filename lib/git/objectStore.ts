// Reads objects of a clone straight from its packfiles with Node's zlib and crypto: every index
// is read when the store opens, a pack once and only when an object is needed from it, deltas are
// resolved against bases cached within the store, and every object is checked against its id.
// Loose objects (none in a clone lightkeeper fetched, but git may write them) are left to
// isomorphic-git.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { readObject } from 'isomorphic-git';
import { GitFetchError } from '../errors';
import { applyDelta } from './applyDelta';
import { damagedCloneError } from './damagedClone';
import type { GitObject, ObjectType } from './gitObject';
import type { IndexedObjects } from './indexedObjects';
import { PACK_TYPES, readEntryHeader } from './packEntryHeader';
import { type PackIndex, parsePackIndex } from './packIndex';

export interface ObjectStore {
  /** The object `oid`, or undefined when the clone does not hold it. */
  find(oid: string): Promise<GitObject | undefined>;
}

interface Pack {
  name: string;
  path: string;
  size: number;
  index: PackIndex;
  /** The whole pack, once read. */
  data?: Buffer;
}

/** git writes no longer chains (pack-objects caps --depth at 4095). */
const MAX_CHAIN = 4_095;
const BASE_CACHE_BYTES = 64 * 1024 * 1024;
const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * Opens the object store of the clone at `dir` (its `.git`): reads the pack indexes. `indexed`: the
 * objects the fetch just indexed, read from memory instead of the packs.
 */
export async function openObjectStore(dir: string, indexed?: IndexedObjects): Promise<ObjectStore> {
  const packDir = join(dir, '.git', 'objects', 'pack');
  const names = (await fs.promises.readdir(packDir).catch(() => [] as string[])).filter((n) =>
    n.endsWith('.idx'),
  );
  const packs = await Promise.all(names.map((idxName) => openPack(dir, packDir, idxName)));
  return new PackedObjects(dir, packs, indexed);
}

async function openPack(dir: string, packDir: string, idxName: string): Promise<Pack> {
  const name = idxName.replace(/\.idx$/, '.pack');
  try {
    const path = join(packDir, name);
    const [idx, { size }] = await Promise.all([
      fs.promises.readFile(join(packDir, idxName)),
      fs.promises.stat(path),
    ]);
    return { name, path, size, index: parsePackIndex(idx, size) };
  } catch (error) {
    throw damagedCloneError(`pack ${name} in the clone ${dir} is unreadable: ${reason(error)}`, dir, error);
  }
}

class PackedObjects implements ObjectStore {
  private readonly bases = new Map<string, GitObject>();
  private baseBytes = 0;

  constructor(
    private readonly dir: string,
    private readonly packs: Pack[],
    private readonly indexed?: IndexedObjects,
  ) {}

  find(oid: string): Promise<GitObject | undefined> {
    return this.lookup(oid, 0);
  }

  /** `depth`: how many deltas down a chain this object is read, REF_DELTA bases included. */
  private async lookup(oid: string, depth: number): Promise<GitObject | undefined> {
    if (!FULL_SHA.test(oid)) throw new GitFetchError(`${oid} is not an object id`, { subject: this.dir });
    const indexed = this.indexed?.get(oid);
    if (indexed) return indexed;
    const id = Buffer.from(oid, 'hex');
    // Each fetch adds a pack of what the clone lacked (and the bases its deltas need), so a commit's
    // objects are spread over the packs of the fetches that brought them; an object held twice is
    // read from a pack already loaded.
    const holding = this.packs.filter((pack) => pack.index.offsetOf(id) !== undefined);
    const pack = holding.find((candidate) => candidate.data !== undefined) ?? holding[0];
    if (pack !== undefined) {
      const offset = pack.index.offsetOf(id) as number;
      const data = await this.load(pack);
      let object: GitObject;
      try {
        object = await this.readAt(pack, data, offset, depth);
      } catch (error) {
        if (error instanceof GitFetchError) throw error; // a base's, already named
        throw this.corrupt(oid, `${pack.name} at offset ${offset}: ${reason(error)}`, error);
      }
      const actual = objectId(object);
      if (actual !== oid) throw this.corrupt(oid, `${pack.name} at offset ${offset} holds ${actual}`);
      return object;
    }
    return this.loose(oid);
  }

  private async load(pack: Pack): Promise<Buffer> {
    if (pack.data !== undefined) return pack.data;
    const data = await fs.promises.readFile(pack.path).catch((error) => {
      throw damagedCloneError(
        `pack ${pack.name} in the clone ${this.dir} is unreadable: ${reason(error)}`,
        this.dir,
        error,
      );
    });
    if (data.length !== pack.size) {
      throw damagedCloneError(
        `pack ${pack.name} in the clone ${this.dir} changed while being read`,
        this.dir,
      );
    }
    pack.data = data;
    return data;
  }

  private async loose(oid: string): Promise<GitObject | undefined> {
    let found: { type: string; object: unknown };
    try {
      found = await readObject({ fs, dir: this.dir, oid, format: 'content' });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'NotFoundError') return undefined;
      throw this.corrupt(oid, `loose object: ${reason(error)}`, error);
    }
    const object = { type: found.type as ObjectType, content: Buffer.from(found.object as Uint8Array) };
    const actual = objectId(object);
    if (actual !== oid) throw this.corrupt(oid, `the loose object holds ${actual}`);
    return object;
  }

  /** The object whose entry starts at `offset` in `pack`, deltas applied. */
  private async readAt(pack: Pack, data: Buffer, offset: number, depth: number): Promise<GitObject> {
    if (depth > MAX_CHAIN) throw new Error(`delta chain longer than ${MAX_CHAIN}`);
    const header = readEntryHeader(data, offset, data.length - 20);
    const { kind, size } = header;
    let base: GitObject | undefined;
    if (header.baseOffset !== undefined) base = await this.baseAt(pack, data, header.baseOffset, depth);
    else if (header.baseOid !== undefined) base = await this.baseOf(header.baseOid, depth);

    const inflated = inflateSync(data.subarray(header.dataStart, pack.index.endOf(offset)), {
      maxOutputLength: Math.max(size, 1),
    });
    if (inflated.length !== size) throw new Error(`inflated to ${inflated.length} bytes, not ${size}`);
    if (base === undefined) return { type: PACK_TYPES[kind] as ObjectType, content: inflated };
    return { type: base.type, content: applyDelta(base.content, inflated) };
  }

  private async baseAt(pack: Pack, data: Buffer, offset: number, depth: number): Promise<GitObject> {
    const key = `${pack.name}:${offset}`;
    const cached = this.bases.get(key);
    if (cached) return cached;
    const base = await this.readAt(pack, data, offset, depth + 1);
    this.remember(key, base);
    return base;
  }

  /** A REF_DELTA base: any object of the clone (a thin pack's bases live in other packs), verified. */
  private async baseOf(oid: string, depth: number): Promise<GitObject> {
    const cached = this.bases.get(oid);
    if (cached) return cached;
    // Counted on: an index that names an entry its own base must end, not loop.
    const base = await this.lookup(oid, depth + 1);
    if (base === undefined) throw new Error(`delta base ${oid} is not in the clone`);
    this.remember(oid, base);
    return base;
  }

  private remember(key: string, object: GitObject): void {
    if (this.baseBytes + object.content.length > BASE_CACHE_BYTES) {
      this.bases.clear();
      this.baseBytes = 0;
    }
    this.bases.set(key, object);
    this.baseBytes += object.content.length;
  }

  private corrupt(oid: string, detail: string, cause?: unknown): GitFetchError {
    return damagedCloneError(
      `object ${oid} in the clone ${this.dir} is corrupt (${detail})`,
      this.dir,
      cause,
    );
  }
}

/** The id git gives `object`: SHA-1 of `<type> <size>\0<content>`. */
export function objectId(object: GitObject): string {
  return createHash('sha1')
    .update(`${object.type} ${object.content.length}\0`)
    .update(object.content)
    .digest('hex');
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
