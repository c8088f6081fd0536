import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { diffTrees } from '../../../lib/git/diffTrees';
import type { GitObject } from '../../../lib/git/gitObject';
import type { ObjectStore } from '../../../lib/git/objectStore';
import type { TreeEntry } from '../../../lib/git/parseTree';
import { rawTree } from '../../support/hostileTree';

/** An object store in memory that counts the trees read: the diff's cost. */
class MemoryStore implements ObjectStore {
  readonly objects = new Map<string, GitObject>();
  readonly reads: string[] = [];
  add(type: 'blob' | 'tree', content: Buffer): string {
    const oid = createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
    this.objects.set(oid, { type, content });
    return oid;
  }
  async find(oid: string) {
    this.reads.push(oid);
    return this.objects.get(oid);
  }
  /** A tree of files (string content) and subtrees (objects); `link:` content is a symlink. */
  tree(spec: Record<string, string | object>): string {
    const entries = Object.entries(spec)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, value]) =>
        typeof value === 'string'
          ? {
              name,
              mode: value.startsWith('link:') ? '120000' : '100644',
              oid: this.add('blob', Buffer.from(value)),
            }
          : { name, mode: '40000', oid: this.tree(value as Record<string, string | object>) },
      );
    return this.add('tree', rawTree(entries));
  }
}

const manifests = (e: TreeEntry) =>
  e.type === 'blob' && e.mode !== '120000' && /\.(ya?ml|json)$/.test(e.path);
const diff = (store: MemoryStore, a: string | undefined, b: string | undefined, maxChanges = 100) =>
  diffTrees(a, b, { objects: store, dir: 'memory', counts: manifests, maxChanges });

describe('diffTrees', () => {
  it('names the added, changed and deleted files with the blob of each side', async () => {
    const s = new MemoryStore();
    const a = s.tree({ 'a.yaml': 'a', 'b.yaml': 'b', sub: { 'c.yaml': 'c' } });
    const b = s.tree({ 'a.yaml': 'a2', sub: { 'c.yaml': 'c', 'd.yml': 'd' } });
    const changes = await diff(s, a, b);
    expect(changes?.map((c) => [c.path, !!c.from, !!c.to])).toEqual([
      ['a.yaml', true, true],
      ['b.yaml', true, false],
      ['sub/d.yml', false, true],
    ]);
  });

  it('reads nothing under a subtree whose id is the same on both sides', async () => {
    const s = new MemoryStore();
    const big: Record<string, string> = {};
    for (let i = 0; i < 50; i++) big[`f${i}.yaml`] = `v${i}`;
    const a = s.tree({ same: { deep: big }, 'x.yaml': '1' });
    const b = s.tree({ same: { deep: big }, 'x.yaml': '2' });
    s.reads.length = 0;
    expect((await diff(s, a, b))?.map((c) => c.path)).toEqual(['x.yaml']);
    expect(s.reads).toEqual(expect.arrayContaining([a, b]));
    expect(s.reads).toHaveLength(2);
  });

  it('is empty for the same tree, and reads nothing', async () => {
    const s = new MemoryStore();
    const a = s.tree({ 'a.yaml': 'a' });
    s.reads.length = 0;
    expect(await diff(s, a, a)).toEqual([]);
    expect(s.reads).toEqual([]);
  });

  it('leaves out files that are no manifests, and counts a file turned symlink as deleted', async () => {
    const s = new MemoryStore();
    const a = s.tree({ 'README.md': 'x', 'a.yaml': 'a' });
    const b = s.tree({ 'README.md': 'y', 'a.yaml': 'link:elsewhere.yaml' });
    expect((await diff(s, a, b))?.map((c) => [c.path, !!c.from, !!c.to])).toEqual([['a.yaml', true, false]]);
  });

  it('walks a directory that replaced a file of the same name (and the reverse)', async () => {
    const s = new MemoryStore();
    const a = s.tree({ 'x.yaml': 'file' });
    const b = s.tree({ 'x.yaml': { 'y.yaml': 'inner' } });
    expect((await diff(s, a, b))?.map((c) => [c.path, !!c.from, !!c.to])).toEqual([
      ['x.yaml', true, false],
      ['x.yaml/y.yaml', false, true],
    ]);
    expect((await diff(s, b, a))?.map((c) => [c.path, !!c.from, !!c.to])).toEqual([
      ['x.yaml', false, true],
      ['x.yaml/y.yaml', true, false],
    ]);
  });

  it('a missing side is everything added (or deleted)', async () => {
    const s = new MemoryStore();
    const a = s.tree({ 'a.yaml': 'a', d: { 'b.yaml': 'b' } });
    expect((await diff(s, undefined, a))?.map((c) => c.path)).toEqual(['a.yaml', 'd/b.yaml']);
    expect((await diff(s, a, undefined))?.every((c) => c.to === undefined)).toBe(true);
  });

  it('gives up past maxChanges', async () => {
    const s = new MemoryStore();
    const a = s.tree({ 'a.yaml': '1', 'b.yaml': '1', 'c.yaml': '1' });
    const b = s.tree({ 'a.yaml': '2', 'b.yaml': '2', 'c.yaml': '2' });
    expect(await diff(s, a, b, 2)).toBeUndefined();
    expect(await diff(s, a, b, 3)).toHaveLength(3);
  });
});
