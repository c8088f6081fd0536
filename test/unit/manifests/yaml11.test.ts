import { describe, expect, it } from 'vitest';
import { digestOf, jsonText, parseManifests } from '../../../lib/manifests';

const header = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\n';
const read = (body: string) => {
  const { manifests, errors } = parseManifests([{ path: 'cm.yaml', content: header + body }]);
  expect(errors.map((e) => e.message)).toEqual([]);
  return manifests[0]!.object;
};
const refusal = (body: string, path = 'cm.yaml') =>
  parseManifests([{ path, content: header + body }]).errors.map((e) => e.message);

// The cases kubectl decides are in test/integration/manifests/kubectlOracle.test.ts; these pin the
// rules down without a kubectl.
describe('YAML 1.1 as go-yaml v2 and sigs.k8s.io/yaml read it', () => {
  it('reads file modes as octal, and other integer forms as Go does', () => {
    expect(read('m: [0644, 0400, 0o644, 0x1F, 0b101, -0x1F, +12, 09, 1_000, 0]\n').m).toEqual([
      420, 256, 420, 31, 5, -31, 12, 9, 1000, 0,
    ]);
  });

  it('reads the YAML 1.1 booleans and nulls, and leaves other words and timestamps as text', () => {
    expect(
      read('b: [yes, No, ON, off, y, N, True, FALSE, yES, ~, Null, nULL, 2024-01-01, 1:20]\n').b,
    ).toEqual([
      true,
      false,
      true,
      false,
      true,
      false,
      true,
      false,
      'yES',
      null,
      null,
      'nULL',
      '2024-01-01',
      '1:20',
    ]);
  });

  it('keeps integers beyond 2^53 exact up to int64, and reads larger ones as float64 as kubectl sends them', () => {
    const { ints } = read(
      'ints: [9007199254740993, 9223372036854775807, 18446744073709551615, 0x1FFFFFFFFFFFFFFFFFFF]\n',
    );
    // 2^64 - 1 read as a float64 is 2^64; a hexadecimal beyond uint64 stays text.
    expect(ints).toEqual([9007199254740993n, 9223372036854775807n, 2 ** 64, '0x1FFFFFFFFFFFFFFFFFFF']);
    expect(jsonText(ints)).toBe(
      '[9007199254740993,9223372036854775807,18446744073709552000,"0x1FFFFFFFFFFFFFFFFFFF"]',
    );
  });

  it('writes map keys as Go does: booleans, decimal integers, float32 floats', () => {
    expect(
      read('k: {on: a, Off: b, 0644: c, 1.5: d, 1e7: e, 0.00001: f, 3.14159265358979: g, .inf: h}\n').k,
    ).toEqual({
      true: 'a',
      false: 'b',
      420: 'c',
      '1.5': 'd',
      '1e+07': 'e',
      '1e-05': 'f',
      '3.1415927': 'g',
      '.inf': 'h',
    });
  });

  it('applies << merges in document order: a later key wins, merged or written', () => {
    const object = read(
      'b: &b {p: 1, q: 2}\nbefore: {p: 0, <<: *b}\nafter: {<<: *b, p: 0}\nlist: {<<: [{a: 1}, {a: 2, c: 2}]}\ntwice: {<<: {a: 1}, <<: {a: 2}}\nquoted: {"<<": 1}\n',
    );
    expect(object).toMatchObject({
      before: { p: 1, q: 2 },
      after: { p: 0, q: 2 },
      list: { a: 1, c: 2 },
      twice: { a: 2 },
      quoted: { '<<': 1 },
    });
  });

  it('refuses what kubectl cannot read, at its line', () => {
    expect(refusal('a: 1\nb: {<<: 1}\n')).toEqual([
      'cm.yaml:5: map merge requires map or sequence of maps as the value',
    ]);
    expect(refusal('a: !!binary aGVs bG8=\n')).toEqual([
      'cm.yaml:4: !!binary value contains invalid base64 data',
    ]);
    expect(refusal('a:\n  ~: 1\n')).toEqual(['cm.yaml:5: unsupported map key ~']);
    expect(refusal('a: "\\/"\n')).toEqual([
      'cm.yaml:4: found unknown escape character \\/ (YAML 1.1 has no such escape)',
    ]);
    expect(refusal('a: *nowhere\n')).toEqual(["cm.yaml:4: unknown anchor 'nowhere' referenced"]);
  });

  it('refuses a document separator followed by anything but a comment, as kubectl splits documents', () => {
    const content = `${header}--- # fine\n${header}--- !!map\n${header}`;
    expect(parseManifests([{ path: 's.yaml', content }]).errors.map((e) => e.message)).toEqual([
      's.yaml:8: invalid YAML document separator: "---" followed by "!!map"; kubectl accepts only a comment after it',
    ]);
  });

  it('refuses a key written twice, even when only resolution makes it the same (on and true)', () => {
    expect(refusal('a: {on: 1, true: 2}\n')).toEqual(['cm.yaml:4: invalid YAML: Map keys must be unique']);
  });

  it('finds lines through keys as they resolve', () => {
    const { errors } = parseManifests([
      {
        path: 'l.yaml',
        content:
          'apiVersion: v1\nkind: List\nitems:\n- {kind: ConfigMap, apiVersion: v1, metadata: {name: a}}\n- kind: ConfigMap\n  apiVersion: v1\n  metadata: {name: 12}\n',
      },
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      'l.yaml:7: metadata.name must be a non-empty string, found number 12',
    ]);
  });
});

describe('JSON files', () => {
  it('keep integers beyond 2^53 exact, as kubectl reads JSON', () => {
    const content =
      '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "j"}, "n": [9007199254740993, 1.0, 1e2, 18446744073709551615]}';
    const { manifests, errors } = parseManifests([{ path: 'j.json', content }]);
    expect(errors).toEqual([]);
    expect(jsonText(manifests[0]!.object.n)).toBe('[9007199254740993,1,100,18446744073709552000]');
  });

  it('refuse a number beyond float64 at its line', () => {
    const content = '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "j"},\n "n": 1e400}';
    expect(parseManifests([{ path: 'j.json', content }]).errors.map((e) => e.message)).toEqual([
      'j.json:2: invalid JSON: a number beyond float64',
    ]);
  });
});

describe('jsonText and digests of exact integers', () => {
  it('writes bigints as digits and everything else as JSON.stringify does', () => {
    const value = { a: 2n ** 63n - 1n, b: [-(2n ** 63n), 1.5, 'x', null], c: undefined, d: '\u0000bigint-1' };
    expect(jsonText(value)).toBe(
      '{"a":9223372036854775807,"b":[-9223372036854775808,1.5,"x",null],"d":"\\u0000bigint-1"}',
    );
    expect(jsonText({ a: 1 })).toBe(JSON.stringify({ a: 1 }));
  });

  it('digests a bigint by its digits, so 2^53+1 and 2^53 differ', () => {
    expect(digestOf({ n: 9007199254740993n })).not.toBe(digestOf({ n: 9007199254740992 }));
    expect(digestOf({ n: 9007199254740993n })).toBe(digestOf({ n: 9007199254740993n }));
  });
});
