// The pack reader against packs written by real git, with git itself as the oracle: every object
// read must be byte for byte what `git cat-file` prints.
import { execFileSync } from 'node:child_process';
import fs, { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexPack } from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
import { openObjectStore } from '../../../lib/git/objectStore';
import { cloneWithThinPack, git, historyRepo } from '../../support/gitHistory';

const text = (dir: string, ...args: string[]) => git(dir, args).toString('utf8').trim();

function allObjects(dir: string): Array<{ oid: string; type: string }> {
  return text(dir, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)')
    .split('\n')
    .map((line) => {
      const [oid, type] = line.split(' ');
      return { oid: oid as string, type: type as string };
    });
}

function packFiles(dir: string): string[] {
  const packDir = join(dir, '.git', 'objects', 'pack');
  return fs
    .readdirSync(packDir)
    .filter((n) => n.endsWith('.pack'))
    .map((n) => join(packDir, n));
}

/** Entry types (1–4 whole objects, 6 OFS_DELTA, 7 REF_DELTA) by object id, read from the pack itself. */
function entryTypes(pack: string): Map<string, { kind: number; offset: number }> {
  const data = readFileSync(pack);
  const index = execFileSync('git', ['show-index'], { input: readFileSync(pack.replace(/\.pack$/, '.idx')) });
  const types = new Map<string, { kind: number; offset: number }>();
  for (const line of index.toString('utf8').trim().split('\n')) {
    const [offset, oid] = line.split(' ');
    types.set(oid as string, { kind: ((data[Number(offset)] as number) >> 4) & 7, offset: Number(offset) });
  }
  return types;
}

/** The base id a REF_DELTA entry names: 20 bytes after its type-and-size header. */
function refDeltaBase(pack: Buffer, offset: number): string {
  let at = offset;
  while ((pack[at] as number) & 0x80) at++;
  return pack.toString('hex', at + 1, at + 21);
}

/** Every object of `oracle` read through the store equals `git cat-file` on it. */
async function expectSameObjects(clone: string, oracle: string, oids: Array<{ oid: string; type: string }>) {
  const store = await openObjectStore(clone);
  for (const { oid, type } of oids) {
    const object = await store.find(oid);
    expect({ oid, type: object?.type }).toEqual({ oid, type });
    expect(object?.content.equals(git(oracle, ['cat-file', type, oid]))).toBe(true);
  }
}

describe('openObjectStore', () => {
  it('reads every object of a pack git wrote with long OFS_DELTA chains, and loose objects', async () => {
    const { dir } = historyRepo(20);
    text(dir, 'repack', '-adfq', '--depth=50', '--window=50');
    const loose = text(dir, 'hash-object', '-w', '--stdin');
    const depths = text(dir, 'verify-pack', '-v', ...packFiles(dir).map((p) => p.replace(/\.pack$/, '.idx')))
      .split('\n')
      .map((line) => Number(line.split(/\s+/)[5]))
      .filter((depth) => Number.isInteger(depth));
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(5);
    const kinds = [...entryTypes(packFiles(dir)[0] as string).values()].map((e) => e.kind);
    expect(kinds).toContain(6);

    await expectSameObjects(dir, dir, allObjects(dir));
    expect((await (await openObjectStore(dir)).find(loose))?.type).toBe('blob');
  });

  it('reads REF_DELTA entries', async () => {
    const { dir } = historyRepo(8);
    text(dir, '-c', 'repack.useDeltaBaseOffset=false', 'repack', '-adfq');
    expect([...entryTypes(packFiles(dir)[0] as string).values()].map((e) => e.kind)).toContain(7);
    await expectSameObjects(dir, dir, allObjects(dir));
  });

  it('resolves the REF_DELTA bases of a thin pack from another pack', async () => {
    const { dir: source, shas } = historyRepo(2);
    const [first, second] = shas as [string, string];
    const { clone, packDir, thin } = cloneWithThinPack(source, first, second);
    // What isomorphic-git does with a fetched pack: stores it as sent and indexes it, bases elsewhere.
    const name = `pack-${thin.subarray(-20).toString('hex')}.pack`;
    writeFileSync(join(packDir, name), thin);
    await indexPack({ fs, dir: clone, filepath: `.git/objects/pack/${name}` });

    const entries = entryTypes(join(packDir, name));
    const external = [...entries.values()]
      .filter((e) => e.kind === 7)
      .map((e) => refDeltaBase(thin, e.offset));
    expect(external.length).toBeGreaterThan(0);
    for (const base of external) expect(entries.has(base)).toBe(false);

    await expectSameObjects(clone, source, allObjects(source));
  });

  it('refuses an object whose index entry points at another object, naming clone and object', async () => {
    const { dir } = historyRepo(3);
    text(dir, 'repack', '-adfq');
    const idxPath = (packFiles(dir)[0] as string).replace(/\.pack$/, '.idx');
    const idx = readFileSync(idxPath);
    const count = idx.readUInt32BE(8 + 255 * 4);
    const offsetsAt = 8 + 256 * 4 + count * 24;
    // Swap the offsets of the first two objects: both still inflate, to the other's content.
    const a = idx.readUInt32BE(offsetsAt);
    idx.writeUInt32BE(idx.readUInt32BE(offsetsAt + 4), offsetsAt);
    idx.writeUInt32BE(a, offsetsAt + 4);
    fs.chmodSync(idxPath, 0o644);
    writeFileSync(idxPath, idx);
    const oid = idx.toString('hex', 8 + 256 * 4, 8 + 256 * 4 + 20);

    const error = await (await openObjectStore(dir)).find(oid).catch((e) => e);
    expect(hasCode(error, 'GitFetchError')).toBe(true);
    expect(error.message).toContain(`object ${oid} in the clone ${dir} is corrupt`);
  });

  it('refuses an object whose compressed bytes are damaged', async () => {
    const { dir } = historyRepo(3);
    text(dir, 'repack', '-adfq');
    const pack = packFiles(dir)[0] as string;
    const [oid, entry] = [...entryTypes(pack)].find(([, e]) => e.kind === 3) as [string, { offset: number }];
    const data = readFileSync(pack);
    data.fill(0xa5, entry.offset + 4, entry.offset + 12);
    fs.chmodSync(pack, 0o644);
    writeFileSync(pack, data);

    const error = await (await openObjectStore(dir)).find(oid).catch((e) => e);
    expect(hasCode(error, 'GitFetchError')).toBe(true);
    expect(error.message).toContain(`object ${oid} in the clone ${dir} is corrupt`);
  });

  it('answers undefined for an object the clone does not hold', async () => {
    const { dir } = historyRepo(1);
    text(dir, 'repack', '-adfq');
    expect(await (await openObjectStore(dir)).find('0'.repeat(40))).toBeUndefined();
  });
});
