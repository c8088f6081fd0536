import { describe, expect, it } from 'vitest';
import { ManifestError } from '../../../lib/errors';
import { parseManifests } from '../../../lib/manifests';
import { FUZZ_TEST_MS, fc, fuzzParameters, outcomeOf, withinMemory } from '../../support/fuzz';

/** Slowest a parse of one generated file (a few KiB at most) may take. */
const PARSE_MS = 1_000;
const HEAD = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\n';

/**
 * A chain of anchors, each made of `fanout` aliases of the one before: `depth` levels expand to
 * fanout^depth values when resolved. Sequences, maps and `<<` merges; the last level is the data.
 */
const aliasChain = fc
  .record({
    depth: fc.integer({ min: 1, max: 40 }),
    fanout: fc.integer({ min: 1, max: 12 }),
    style: fc.constantFrom('seq', 'map', 'merge', 'block'),
    leaf: fc.constantFrom('"lol"', '{k: v}', `[${Array(50).fill('x').join(', ')}]`, '&self [*self]'),
    selfReference: fc.boolean(),
  })
  .map(({ depth, fanout, style, leaf, selfReference }) => {
    const lines = [`a0: &a0 ${leaf}`];
    for (let level = 1; level <= depth; level++) {
      const previous = `*a${level - 1}`;
      const uses = Array.from({ length: fanout }, (_, i) =>
        style === 'map' ? `k${i}: ${previous}` : previous,
      );
      const body =
        style === 'seq'
          ? `[${uses.join(', ')}]`
          : style === 'map'
            ? `{${uses.join(', ')}}`
            : style === 'merge'
              ? `{<<: [${uses.join(', ')}], own${level}: v}`
              : `\n${uses.map((u) => `  - ${u}`).join('\n')}`;
      lines.push(`a${level}: &a${level} ${body}`);
    }
    if (selfReference) lines.push(`loop: &loop [*loop]`);
    return `${HEAD}${lines.join('\n')}\ndata: {all: *a${depth}}\n`;
  });

/** `text` with a few bytes changed: a truncated anchor, a stray bracket, a repeated alias. */
const mutated = (text: fc.Arbitrary<string>) =>
  fc
    .tuple(
      text,
      fc.array(
        fc.tuple(fc.nat(), fc.constantFrom('', '[', ']', '{', '*a0', '&a0', '<<: ', '\n', ': ', '---\n')),
        { maxLength: 3 },
      ),
    )
    .map(([t, edits]) =>
      edits.reduce((s, [at, insert]) => {
        const i = at % (s.length + 1);
        return s.slice(0, i) + insert + s.slice(i + (insert === '' ? 1 : 0));
      }, t),
    );

/** Nested flow collections and block maps, deeper than any manifest needs. */
const deepNesting = fc
  .record({ depth: fc.integer({ min: 1, max: 5_000 }), open: fc.constantFrom('[', '{k: ', '- ') })
  .map(({ depth, open }) =>
    open === '- '
      ? `${HEAD}data:\n${Array.from({ length: Math.min(depth, 500) }, (_, i) => `${'  '.repeat(i)}- `).join('\n')}x\n`
      : `${HEAD}data: ${open.repeat(depth)}x${(open === '[' ? ']' : '}').repeat(depth)}\n`,
  );

/** Every outcome of a parse: objects of a bounded size, or errors naming the file and line. */
async function expectBoundedParse(content: string): Promise<void> {
  const outcome = await outcomeOf(() => parseManifests([{ path: 'bomb.yaml', content }]), PARSE_MS);
  expect(outcome.ok, outcome.ok ? '' : outcome.error.stack).toBe(true);
  if (!outcome.ok) return;
  for (const error of outcome.value.errors) {
    expect(error).toBeInstanceOf(ManifestError);
    expect(error.message).toMatch(/^bomb\.yaml(:\d+)?: /);
  }
  const size = outcome.value.manifests.reduce((n, m) => n + JSON.stringify(m.object).length, 0);
  expect(size).toBeLessThan(10 * 1024 * 1024);
}

describe('fuzz: YAML', { timeout: FUZZ_TEST_MS }, () => {
  it('expands no alias chain beyond its bound (sequences, maps, merges, self-references)', async () => {
    await withinMemory(256, () =>
      fc.assert(fc.asyncProperty(aliasChain, expectBoundedParse), fuzzParameters(400)),
    );
  });

  it('ends alias chains with a few bytes changed in objects or errors naming file and line', async () => {
    await withinMemory(256, () =>
      fc.assert(fc.asyncProperty(mutated(aliasChain), expectBoundedParse), fuzzParameters(400)),
    );
  });

  it('ends nesting deeper than any manifest in objects or errors, never a crash', async () => {
    await fc.assert(fc.asyncProperty(deepNesting, expectBoundedParse), fuzzParameters(60));
  });

  it('ends any text in objects or errors naming file and line', async () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      mutated(fc.constant(`${HEAD}data: {a: &a [1, 2], b: *a, c: {<<: {x: 1}}}\n`)),
    );
    await fc.assert(fc.asyncProperty(text, expectBoundedParse), fuzzParameters(3_000));
  });
});
