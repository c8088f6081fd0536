import { describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
import type { ObjectStore } from '../../../lib/git/objectStore';
import { parseTree, RefusedTreeEntry } from '../../../lib/git/parseTree';
import { readTree } from '../../../lib/git/readTypedObject';
import { treeEntryNameRefusal } from '../../../lib/git/treeEntryName';
import { git, temp } from '../../support/gitHistory';
import { blob, rawTree, tree } from '../../support/hostileTree';

const id = (byte: number) => byte.toString(16).padStart(2, '0').repeat(20);
const one = (name: string, mode = '100644') => rawTree([{ mode, name, oid: id(1) }]);
const refusal = (content: Buffer, at?: string) => {
  try {
    parseTree(content, at);
  } catch (error) {
    return error;
  }
  return undefined;
};

/** Every form of a name git's fsck refuses, with the reason lightkeeper gives. */
const refused: Array<[string, string, RegExp]> = [
  ['the empty name', '', /is empty/],
  ['.', '.', /names the directory itself/],
  ['..', '..', /names the parent directory/],
  ['a path', 'a/b', /contains '\/'/],
  ['a climbing path', '../../etc', /contains '\/'/],
  ['.git', '.git', /is \.git/],
  ['.GIT', '.GIT', /is \.git/],
  ['.gIt', '.gIt', /is \.git/],
  // HFS+ ignores these code points when it compares names: all of them are `.git` on a Mac.
  ...['\u200c', '\u200d', '\u200e', '\u200f', '\u202a', '\u202e', '\u206a', '\u206f', '\ufeff'].map(
    (c): [string, string, RegExp] => [
      `.git with U+${c.codePointAt(0)?.toString(16).toUpperCase()}`,
      `.g${c}i${c}t${c}`,
      /is \.git/,
    ],
  ),
  ['.git after U+FEFF', '\ufeff.git', /is \.git/],
  // NTFS: the short name, trailing dots and spaces, alternate data streams, backslash separators.
  ['git~1', 'git~1', /is \.git/],
  ['GIT~1', 'GIT~1', /is \.git/],
  ['.git.', '.git.', /is \.git/],
  ['.git with trailing spaces', '.git  ', /is \.git/],
  ['.git. .', '.git. .', /is \.git/],
  ['.git::$INDEX_ALLOCATION', '.git::$INDEX_ALLOCATION', /is \.git/],
  ['git~1:stream', 'git~1:stream:$DATA', /is \.git/],
  ['.git\\x', '.git\\x', /is \.git/],
  ['a\\.git', 'a\\.git', /is \.git/],
  ['a\\GIT~1.\\b', 'a\\GIT~1.\\b', /is \.git/],
];

/** Names that only look like the refused ones: git keeps them, and so does lightkeeper. */
const allowed = ['.gitignore', '.gitmodules', '.git-crypt', 'git', 'git~2', '.git~1', '...', '..a', 'a..'];
const alsoAllowed = ['.\u0147it', '.gitx', 'x.git', '.git\u200b', 'a\\b', ' .git', 'ünï.yaml'];

describe('tree entry names (git fsck rules)', () => {
  it.each(refused)('refuses %s', (_, name, reason) => {
    expect(treeEntryNameRefusal(name)).toMatch(reason);
    const error = refusal(one(name, '40000'), 'apps/prod');
    expect(error).toBeInstanceOf(RefusedTreeEntry);
    expect((error as RefusedTreeEntry).path).toBe(`apps/prod/${name}`);
    expect((error as Error).message).toMatch(reason);
    expect((error as Error).message).toContain('in apps/prod ');
  });

  it("agrees with git's own fsck on every name listed here", () => {
    const repo = temp();
    git(repo, ['init', '-q']);
    const content = blob(repo, 'x\n');
    const names = [...refused.map(([, name]) => name), ...allowed, ...alsoAllowed];
    const trees = names.map((name) => tree(repo, [{ mode: '100644', name, oid: content }]));
    let report = '';
    try {
      git(repo, ['-c', 'fsck.hasDotgit=error', 'fsck', '--no-dangling']);
    } catch (error) {
      report = String((error as { stderr?: Buffer }).stderr);
    }
    const gitRefuses = names.filter((_, i) => report.includes(trees[i] as string));
    expect(gitRefuses).toEqual(names.filter((name) => treeEntryNameRefusal(name) !== undefined));
  });

  it('refuses a name with NUL (a tree cannot hold one: the name ends at the first NUL)', () => {
    expect(treeEntryNameRefusal('a\0b')).toBe('contains NUL');
    expect(refusal(Buffer.concat([Buffer.from('100644 a\0b\0'), Buffer.alloc(20)]))).toBeInstanceOf(Error);
  });

  it.each([...allowed, ...alsoAllowed])('keeps %j', (name) => {
    expect(treeEntryNameRefusal(name)).toBeUndefined();
    expect(parseTree(one(name)).map((e) => e.path)).toEqual([name]);
  });

  it('spells out invisible code points in the message', () => {
    expect((refusal(one('.git\u200c')) as Error).message).toBe(
      'tree entry ".git\\u200c" in the repository root is .git (or a name a filesystem reads as .git)',
    );
  });

  it('refuses a name that repeats in one tree, whatever the types', () => {
    const twice = rawTree([
      { mode: '100644', name: 'a.yaml', oid: id(1) },
      { mode: '100644', name: 'a.yaml', oid: id(2) },
    ]);
    expect((refusal(twice) as Error).message).toBe(
      'tree entry "a.yaml" in the repository root appears twice in its tree',
    );
  });

  it('refuses a symlink followed by a tree of the same name (a write through the link)', () => {
    const linkThenTree = rawTree([
      { mode: '120000', name: 'base', oid: id(1) },
      { mode: '40000', name: 'base', oid: id(2) },
    ]);
    const error = refusal(linkThenTree, 'overlays') as RefusedTreeEntry;
    expect(error.path).toBe('overlays/base');
    expect(error.message).toMatch(/appears twice/);
  });

  it('refuses two names whose bytes decode to the same name', () => {
    // 0xff and 0xfe are no UTF-8: both names read as "x\ufffd".
    const a = Buffer.concat([Buffer.from('100644 x'), Buffer.from([0xff, 0])]);
    const b = Buffer.concat([Buffer.from('100644 x'), Buffer.from([0xfe, 0])]);
    const twice = Buffer.concat([a, Buffer.alloc(20, 1), b, Buffer.alloc(20, 2)]);
    expect((refusal(twice) as Error).message).toMatch(/appears twice/);
  });

  it('refuses a mode git never writes', () => {
    expect((refusal(one('a', '100644x')) as Error).message).toMatch(/mode "100644x"/);
    expect(refusal(one('a', '644'))).toBeInstanceOf(Error);
  });

  it('reads a refused entry as a GitFetchError naming its repository path and tree', async () => {
    const content = one('..', '40000');
    const objects: ObjectStore = { find: async () => ({ type: 'tree', content }) };
    const error = await readTree(objects, '/clone', id(9), 'apps').catch((e: unknown) => e);
    expect(hasCode(error, 'GitFetchError')).toBe(true);
    expect((error as { subject: string }).subject).toBe('apps/..');
    expect((error as Error).message).toBe(
      `tree entry ".." in apps names the parent directory (tree ${id(9)}): git refuses such a tree, and so does lightkeeper`,
    );
  });
});
