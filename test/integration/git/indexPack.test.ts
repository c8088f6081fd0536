// The native pack indexer against git: the index it builds is byte for byte the one
// `git index-pack` writes for the same pack.
import { createHash } from 'node:crypto';
import fs, { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexPack as isomorphicIndexPack } from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { indexPack } from '../../../lib/git/indexPack';
import { openObjectStore } from '../../../lib/git/objectStore';
import { cloneWithThinPack, git, historyRepo } from '../../support/gitHistory';

const none = async () => undefined;

describe('indexPack', () => {
  it.each([
    ['OFS_DELTA chains', [] as string[]],
    ['REF_DELTA entries', ['-c', 'repack.useDeltaBaseOffset=false']],
  ])('writes the index git writes for a pack with %s', async (_, config) => {
    const { dir } = historyRepo(15);
    git(dir, [...config, 'repack', '-adfq', '--depth=50', '--window=50']);
    const packDir = join(dir, '.git', 'objects', 'pack');
    const name = readdirSync(packDir).find((n) => n.endsWith('.pack')) as string;
    const ours = await indexPack(readFileSync(join(packDir, name)), none);
    expect(ours.equals(readFileSync(join(packDir, name.replace(/\.pack$/, '.idx'))))).toBe(true);
  });

  it('resolves the bases of a thin pack from the clone, as isomorphic-git does', async () => {
    const { dir: source, shas } = historyRepo(2);
    const [first, second] = shas as [string, string];
    const { clone, packDir, thin } = cloneWithThinPack(source, first, second);
    const objects = await openObjectStore(clone);
    await expect(indexPack(thin, none)).rejects.toThrow(/delta base [0-9a-f]{40} is missing/);
    const ours = await indexPack(thin, (oid) => objects.find(oid));

    const name = `pack-${thin.subarray(-20).toString('hex')}.pack`;
    writeFileSync(join(packDir, name), thin);
    await isomorphicIndexPack({ fs, dir: clone, filepath: `.git/objects/pack/${name}` });
    expect(ours.equals(readFileSync(join(packDir, name.replace(/\.pack$/, '.idx'))))).toBe(true);
  });

  it('refuses a pack whose checksum does not match, and one whose objects do not inflate', async () => {
    const { dir } = historyRepo(2);
    git(dir, ['repack', '-adfq']);
    const packDir = join(dir, '.git', 'objects', 'pack');
    const pack = readFileSync(join(packDir, readdirSync(packDir).find((n) => n.endsWith('.pack')) as string));
    const flipped = Buffer.from(pack);
    flipped.fill(0x33, 40, 60);
    await expect(indexPack(flipped, none)).rejects.toThrow(/pack checksum mismatch/);
    // The same damage with a checksum made to match: caught by the objects themselves.
    const trailer = flipped.length - 20;
    createHash('sha1').update(flipped.subarray(0, trailer)).digest().copy(flipped, trailer);
    await expect(indexPack(flipped, none)).rejects.toThrow(/object at offset|inflate|incorrect|invalid/i);
  });
});
