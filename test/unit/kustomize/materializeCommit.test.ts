import { existsSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { hasCode } from '../../../lib/errors';
import type { TreeEntry } from '../../../lib/git/parseTree';
import { materializeCommit } from '../../../lib/kustomize/materializeCommit';
import { git, temp } from '../../support/gitHistory';
import { blob, commitTree, type RawEntry, tree } from '../../support/hostileTree';

// `lenient` stands for a name check someone missed: the tree reader and the name rules then let
// everything through, and only materializeCommit's own confinement stands between a tree and the disk.
const missed = vi.hoisted(() => ({ checks: false }));
vi.mock('../../../lib/git/treeEntryName', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../lib/git/treeEntryName')>();
  return {
    ...actual,
    treeEntryNameRefusal: (name: string) => (missed.checks ? undefined : actual.treeEntryNameRefusal(name)),
  };
});
vi.mock('../../../lib/git/readTypedObject', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../lib/git/readTypedObject')>();
  return {
    ...actual,
    readTree: async (...args: Parameters<typeof actual.readTree>) => {
      if (!missed.checks) return actual.readTree(...args);
      const found = await args[0].find(args[2]);
      return uncheckedEntries(found?.content as Buffer);
    },
  };
});

/** A tree's entries as they are, nothing refused. */
function uncheckedEntries(content: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (let at = 0; at < content.length; ) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space);
    const mode = content.toString('latin1', at, space).padStart(6, '0');
    const type = mode === '040000' ? 'tree' : 'blob';
    entries.push({
      mode,
      path: content.toString('utf8', space + 1, nul),
      oid: content.toString('hex', nul + 1, nul + 21),
      type,
    });
    at = nul + 21;
  }
  return entries;
}

let repo: string;
let work: string;
let outside: string;
beforeEach(() => {
  missed.checks = false;
  repo = temp();
  git(repo, ['init', '-q', '-b', 'main']);
  work = temp();
  outside = join(work, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'precious.yaml'), 'kept: true\n');
});

const materialize = (entries: RawEntry[]) => {
  const commit = commitTree(repo, tree(repo, entries), 'hostile');
  return materializeCommit({ dir: repo, commit, into: join(work, 'render') }).then(
    () => undefined,
    (e: unknown) => e as Error & { subject?: string },
  );
};
const file = (name: string, content = 'kind: Pwned\n'): RawEntry => ({
  mode: '100644',
  name,
  oid: blob(repo, content),
});
const dir = (name: string, entries: RawEntry[]): RawEntry => ({
  mode: '40000',
  name,
  oid: tree(repo, entries),
});
const link = (name: string, target: string): RawEntry => ({ mode: '120000', name, oid: blob(repo, target) });
const untouched = () => {
  expect(readFileSync(join(outside, 'precious.yaml'), 'utf8')).toBe('kept: true\n');
  expect(existsSync(join(outside, 'pwned.yaml'))).toBe(false);
  expect(existsSync(join(work, 'escaped.yaml'))).toBe(false);
};

describe('materializeCommit', () => {
  it('writes files, directories and symlinks of the commit under its directory', async () => {
    expect(
      await materialize([
        file('a.yaml', 'a: 1\n'),
        dir('base', [file('b.yaml', 'b: 1\n')]),
        link('l', 'base'),
      ]),
    ).toBeUndefined();
    expect(readFileSync(join(work, 'render', 'base', 'b.yaml'), 'utf8')).toBe('b: 1\n');
    expect(readlinkSync(join(work, 'render', 'l'))).toBe('base');
  });

  it('writes only the directory asked for, and the directories leading to it', async () => {
    const commit = commitTree(
      repo,
      tree(repo, [
        file('top.yaml'),
        dir('charts', [
          file('index.yaml'),
          dir('web', [file('Chart.yaml', 'name: web\n')]),
          dir('db', [file('x')]),
        ]),
        dir('charts-web', [file('y')]),
      ]),
      'charts',
    );
    const into = join(work, 'only');
    await materializeCommit({ dir: repo, commit, into, only: 'charts/web' });
    expect(readFileSync(join(into, 'charts', 'web', 'Chart.yaml'), 'utf8')).toBe('name: web\n');
    for (const path of ['top.yaml', 'charts/index.yaml', 'charts/db', 'charts-web'])
      expect(existsSync(join(into, path)), path).toBe(false);
  });

  it('refuses a tree entry named .. (the reader refuses it), writing nothing outside', async () => {
    const error = await materialize([dir('..', [file('escaped.yaml')])]);
    expect(hasCode(error, 'GitFetchError')).toBe(true);
    expect(error?.subject).toBe('..');
    untouched();
  });

  it('refuses a symlink followed by a tree of the same name, writing nothing through the link', async () => {
    const error = await materialize([link('base', outside), dir('base', [file('pwned.yaml')])]);
    expect(error?.message).toMatch(/"base" .*appears twice/);
    untouched();
  });

  describe('when the name checks are missed', () => {
    beforeEach(() => {
      missed.checks = true;
    });

    it('never writes through a symlink into a directory', async () => {
      const error = await materialize([link('base', outside), dir('base', [file('pwned.yaml')])]);
      expect(error?.message).toMatch(/cannot write "base" for the render \(something is already there\)/);
      untouched();
    });

    it('never writes through a symlink onto a file', async () => {
      const error = await materialize([
        link('precious.yaml', join(outside, 'precious.yaml')),
        file('precious.yaml'),
      ]);
      expect(error?.message).toMatch(/something is already there/);
      untouched();
    });

    it('never overwrites what it wrote before', async () => {
      const error = await materialize([file('a.yaml', 'first\n'), file('a.yaml', 'second\n')]);
      expect(error?.message).toMatch(/cannot write "a.yaml"/);
      expect(readFileSync(join(work, 'render', 'a.yaml'), 'utf8')).toBe('first\n');
    });

    it.each([
      ['a tree named ..', () => [dir('..', [file('escaped.yaml')])]],
      ['a file named ../escaped.yaml', () => [file('../escaped.yaml')]],
      ['a path through .. two levels up', () => [dir('x', [file('../../escaped.yaml')])]],
    ])('refuses %s: every target resolves under the root', async (_, entries) => {
      const error = await materialize(entries());
      expect(error?.message).toMatch(/refusing to write ".*" outside the render's directory/);
      untouched();
    });
  });
});
