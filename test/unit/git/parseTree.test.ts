import { describe, expect, it } from 'vitest';
import { parseTree } from '../../../lib/git/parseTree';

const id = (byte: number) => Buffer.alloc(20, byte);
const entry = (mode: string, name: string, byte: number) =>
  Buffer.concat([Buffer.from(`${mode} ${name}\0`), id(byte)]);

describe('parseTree', () => {
  it('reads modes, names, ids and types as isomorphic-git spells them', () => {
    const tree = Buffer.concat([
      entry('100644', 'a.yaml', 1),
      entry('40000', 'dir', 2),
      entry('120000', 'link', 3),
      entry('160000', 'module', 4),
      entry('100755', 'ünï.json', 5),
    ]);
    expect(parseTree(tree)).toEqual([
      { mode: '100644', path: 'a.yaml', oid: '01'.repeat(20), type: 'blob' },
      { mode: '040000', path: 'dir', oid: '02'.repeat(20), type: 'tree' },
      { mode: '120000', path: 'link', oid: '03'.repeat(20), type: 'blob' },
      { mode: '160000', path: 'module', oid: '04'.repeat(20), type: 'commit' },
      { mode: '100755', path: 'ünï.json', oid: '05'.repeat(20), type: 'blob' },
    ]);
  });

  it('refuses a truncated entry', () => {
    expect(() => parseTree(entry('100644', 'a.yaml', 1).subarray(0, 20))).toThrow(/truncated/);
  });
});
