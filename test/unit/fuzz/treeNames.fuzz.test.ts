import { resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
import { parseTree, RefusedTreeEntry } from '../../../lib/git/parseTree';
import { treeEntryNameRefusal } from '../../../lib/git/treeEntryName';
import { confined } from '../../../lib/kustomize/materializeCommit';
import { expectClear, FUZZ_TEST_MS, fc, fuzzParameters, outcomeOf } from '../../support/fuzz';
import { rawTree } from '../../support/hostileTree';

const IGNORABLE = ['\u200c', '\u200d', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e'];
const ignorable = fc.constantFrom(
  ...IGNORABLE,
  '\u206a',
  '\u206b',
  '\u206c',
  '\u206d',
  '\u206e',
  '\u206f',
  '\ufeff',
);
const anyCase = (word: string) =>
  fc
    .tuple(...[...word].map((c) => fc.boolean().map((up) => (up ? c.toUpperCase() : c))))
    .map((cs) => cs.join(''));
/** `word` with HFS+-ignorable code points slipped in anywhere. */
const sprinkled = (word: string) =>
  fc
    .tuple(anyCase(word), fc.array(fc.tuple(fc.nat(), ignorable), { maxLength: 4 }))
    .map(([w, inserts]) =>
      inserts.reduce((s, [at, c]) => s.slice(0, at % (s.length + 1)) + c + s.slice(at % (s.length + 1)), w),
    );
const ntfsTail = fc.tuple(
  fc.array(fc.constantFrom('.', ' '), { maxLength: 4 }),
  fc.constantFrom('', ':', '::$INDEX_ALLOCATION', ':x:$DATA', '\\rest'),
);

/** Names git's fsck refuses, in every form it knows. */
const badName = fc.oneof(
  fc.constantFrom('', '.', '..'),
  fc.tuple(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 })).map(([a, b]) => `${a}/${b}`),
  sprinkled('.git'),
  fc
    .tuple(fc.oneof(anyCase('.git'), anyCase('git~1')), ntfsTail)
    .map(([dotgit, [pad, tail]]) => dotgit + pad.join('') + tail),
  fc.tuple(fc.stringMatching(/^[a-z\\]{0,4}$/), anyCase('.git')).map(([head, g]) => `${head}\\${g}`),
);

/** Names git keeps, some of them near misses of the refused ones. */
const goodName = fc.oneof(
  fc.stringMatching(/^[a-zA-Z0-9_-][a-zA-Z0-9_.-]{0,12}$/).filter((n) => n !== '..' && n !== '.'),
  fc.constantFrom(
    '.gitignore',
    '.git~2',
    'git~2',
    '.gitx',
    '...',
    '.\u0147it',
    '.git\u200b',
    ' .git',
    'x\\y',
  ),
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 8 })
    .filter((n) => treeEntryNameRefusal(n) === undefined),
);

const named = fc.oneof(
  { weight: 4, arbitrary: goodName.map((name) => ({ name, bad: false })) },
  { weight: 1, arbitrary: badName.map((name) => ({ name, bad: true })) },
);
const mode = fc.constantFrom('100644', '100755', '120000', '40000', '160000');
const oid = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => Buffer.from(b).toString('hex'));

describe('fuzz: tree entry names', { timeout: FUZZ_TEST_MS }, () => {
  it('every form of a refused name is refused, and nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(badName, goodName, async (bad, good) => {
        expect(treeEntryNameRefusal(bad)).toBeDefined();
        expect(treeEntryNameRefusal(good)).toBeUndefined();
      }),
      fuzzParameters(5_000),
    );
  });

  it('refuses a tree iff a name is refused or repeats, naming the first such entry', async () => {
    const entries = fc.array(fc.record({ named, mode, oid }), { maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(entries, fc.constantFrom('', 'apps', 'a/b'), async (list, at) => {
        // A name with NUL cannot be written into a tree: it would end at the NUL.
        fc.pre(list.every((e) => !e.named.name.includes('\0')));
        const content = rawTree(list.map((e) => ({ mode: e.mode, name: e.named.name, oid: e.oid })));
        const seen = new Set<string>();
        const first = list.find((e) => {
          const refused = e.named.bad || seen.has(e.named.name);
          seen.add(e.named.name);
          return refused;
        });
        const outcome = await outcomeOf(() => parseTree(content, at));
        if (first === undefined) {
          expect(outcome.ok).toBe(true);
          if (outcome.ok) expect(outcome.value.map((e) => e.path)).toEqual(list.map((e) => e.named.name));
          return;
        }
        expect(outcome.ok).toBe(false);
        if (outcome.ok) return;
        // A name with '/' is refused; the parser may also see a mode-less remainder first, never a pass.
        if (!(outcome.error instanceof RefusedTreeEntry)) return expectClear(outcome.error);
        expect(outcome.error.path).toBe(at === '' ? first.named.name : `${at}/${first.named.name}`);
      }),
      fuzzParameters(3_000),
    );
  });

  it('reads any bytes into names git keeps, or a clear error', async () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc
        .array(fc.record({ named, mode: fc.oneof(mode, fc.string({ maxLength: 7 })), oid }), { maxLength: 6 })
        .map((list) => rawTree(list.map((e) => ({ mode: e.mode, name: e.named.name, oid: e.oid })))),
    );
    await fc.assert(
      fc.asyncProperty(bytes, fc.nat({ max: 30 }), async (content, cut) => {
        const outcome = await outcomeOf(() =>
          parseTree(Buffer.from(content).subarray(0, content.length - cut)),
        );
        if (!outcome.ok) return expectClear(outcome.error);
        const names = outcome.value.map((e) => e.path);
        expect(new Set(names).size).toBe(names.length);
        for (const entry of outcome.value) {
          expect(treeEntryNameRefusal(entry.path)).toBeUndefined();
          expect(entry.oid).toMatch(/^[0-9a-f]{40}$/);
          expect(['blob', 'tree', 'commit']).toContain(entry.type);
        }
      }),
      fuzzParameters(5_000),
    );
  });

  it('a render target is under its root or refused, whatever the repository path', async () => {
    const root = resolve('/render/root');
    const segment = fc.oneof(badName, goodName, fc.constantFrom('..', '.', '', '../..', '/etc', '\\..'));
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 6 }), async (segments) => {
        const outcome = await outcomeOf(() => confined(root, segments.join('/')));
        if (outcome.ok) expect(outcome.value.startsWith(root + sep)).toBe(true);
        else expect(hasCode(outcome.error, 'GitFetchError')).toBe(true);
      }),
      fuzzParameters(5_000),
    );
  });
});
