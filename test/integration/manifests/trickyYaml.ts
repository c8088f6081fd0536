/**
 * YAML (and JSON) that YAML 1.2 readers, YAML 1.1 readers and JavaScript read differently. Each case
 * is a whole file; `outcome` is what the oracle test expects of kubectl and lightkeeper:
 * - `same` (default): both read the same objects;
 * - `refused`: kubectl cannot read the file, and lightkeeper refuses it with a line;
 * - `{ lightkeeperRefuses }`: kubectl reads it, lightkeeper refuses it on purpose, for that reason.
 */
export type TrickyCase = {
  name: string;
  text: string;
  /** Default `<name>.yaml`. */
  file?: string;
  outcome?: 'same' | 'refused' | { lightkeeperRefuses: string };
};

const configMap = (name: string, body: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\n${body}`;

const cm = (name: string, body: string, outcome?: TrickyCase['outcome']): TrickyCase => ({
  name,
  text: configMap(name, body),
  ...(outcome ? { outcome } : {}),
});

export const trickyYaml: TrickyCase[] = [
  cm(
    'octals',
    'data:\n  defaultMode: 0644\n  readOnly: 0400\n  o: 0o644\n  O: 0O17\n  hex: 0x1F\n  HEX: 0X1f\n  bin: 0b101\n  negHex: -0x1F\n  plus: +12\n  notOctal: 09\n  longOctal: 0777777777777777777777777\n',
  ),
  cm(
    'secret-volume-mode',
    'spec:\n  volumes:\n  - name: s\n    secret: {secretName: s, defaultMode: 0400, items: [{key: k, path: p, mode: 0755}]}\n',
  ),
  cm(
    'booleans',
    'data:\n  all: [yes, no, on, off, y, n, Y, N, True, TRUE, true, False, FALSE, On, OFF, Yes, NO, yES, oN]\n',
  ),
  cm('nulls', "data:\n  a: ~\n  b: null\n  c: Null\n  d: NULL\n  e:\n  f: nULL\n  g: ''\n  h: [~, null, ]\n"),
  cm(
    'timestamps',
    'data:\n  a: 2001-12-14t21:59:43.10-05:00\n  b: 2001-12-14 21:59:43.10 -5\n  c: 2002-12-14\n  d: 2001-12-15T02:59:43.1Z\n  e: !!timestamp 2001-12-14\n  f: 2024-13-45\n  g: 2024-1-2\n  h: 2001-12-14 21:59:43.10\n  i: 2001-12-14T21:59:43+01:00\n',
  ),
  cm('timestamp-tag-refused', 'data:\n  a: !!timestamp tomorrow\n', 'refused'),
  cm(
    'merges',
    'base: &base {p: 1, q: 2}\nexplicitBefore:\n  p: 0\n  <<: *base\nexplicitAfter:\n  <<: *base\n  p: 0\nlistOfMaps: {<<: [{a: 1}, {a: 2, b: 2}], c: 3}\ntwoMerges:\n  <<: {a: 1}\n  <<: {a: 2, c: 3}\nquoted: {"<<": {a: 1}}\ntagged: {!!merge <<: {z: 1}}\nnested:\n  <<: {inner: {<<: *base, r: 3}}\n',
  ),
  cm('merge-of-scalar-refused', 'data: {<<: 1}\n', 'refused'),
  cm('merge-of-list-of-scalars-refused', 'data: {<<: [{a: 1}, 2]}\n', 'refused'),
  cm(
    'big-integers',
    'data:\n  above2to53: 9007199254740993\n  int64Max: 9223372036854775807\n  int64Min: -9223372036854775808\n  above: 9223372036854775808\n  uint64Max: 18446744073709551615\n  beyondUint64: 18446744073709551616\n  huge: 123456789012345678901234567890\n  belowInt64: -9223372036854775809\n  hexInt64Max: 0x7FFFFFFFFFFFFFFF\n  hexUint64: 0xFFFFFFFFFFFFFFFF\n  hexBeyond: 0x1FFFFFFFFFFFFFFFFFFF\n  underscores: 1_000_000\n  floatAbove: 9007199254740993.0\n  list: [9007199254740995, -9007199254740995]\n',
  ),
  cm(
    'floats',
    'data:\n  a: 1e3\n  b: 1.5\n  c: .5\n  d: -.5e-3\n  e: 1.\n  f: 1e400\n  g: 1E+2\n  h: 3.14159265358979323846\n  i: 1.0\n  j: -0.0\n  k: 1e21\n  l: 1.5e-7\n  m: 6.02e23\n  n: 1_0.5\n  o: 0.1\n  version: 1.10\n  p: +.5\n',
  ),
  cm('infinity-refused', 'data:\n  a: .inf\n', 'refused'),
  cm('negative-infinity-refused', 'data:\n  a: -.Inf\n', 'refused'),
  cm('nan-refused', 'data:\n  a: .NaN\n', 'refused'),
  cm(
    'keys',
    'data:\n  on: a\n  off: b\n  1.5: c\n  1e7: d\n  0644: e\n  1e3: f\n  0.00001: g\n  123456.0: h\n  1234567.0: i\n  3.14159265358979: j\n  -0.0: k\n  .inf: l\n  2001-12-14: n\n  9223372036854775807: o\n  .nan: p\n  "yes": q\n  !!str no: r\n',
  ),
  cm('on-key', 'spec:\n  on:\n    push: {branches: [main]}\n  Off: 3\n'),
  cm('null-key-refused', 'data:\n  ~: a\n', 'refused'),
  cm('uint64-key-refused', 'data:\n  18446744073709551615: a\n', 'refused'),
  cm('binary', 'data:\n  a: !!binary aGVsbG8=\n  b: !!binary |\n    aGVs\n    bG8=\n  c: !!binary ""\n'),
  cm('binary-with-space-refused', 'data:\n  a: !!binary aGVs bG8=\n', 'refused'),
  cm('binary-without-padding-refused', 'data:\n  a: !!binary aGVsbG8\n', 'refused'),
  cm('binary-not-utf8', 'data:\n  a: !!binary /w==\n', {
    lightkeeperRefuses:
      'kubectl replaces bytes that are not UTF-8 by U+FFFD, silently sending other data than written',
  }),
  cm(
    'numbers-in-strings',
    'data:\n  quoted: \'0644\'\n  double: "yes"\n  tagged: !!str 0644\n  block: |\n    0644\n  folded: >-\n    1e3\n  nonSpecific: ! 0644\n  local: !custom 0644\n  sexagesimal: 190:20:30\n  time: 1:20\n  notNumber: 12e\n  hexPrefix: 0x\n  dot: .\n  underscore: _1\n  doubleUnderscore: 1__0\n  binPrefix: 0b\n  hexUnderscore: 0x_1F\n  signedHex: +0x1F\n  signedBin: -0b101\n  twoDots: 0.1.2\n  comma: 1,000\n  image: nginx:1.27\n  port: "8080"\n',
  ),
  cm(
    'explicit-tags',
    "data:\n  int: !!int '0644'\n  float: !!float 1\n  bool: !!bool yes\n  nul: !!null ''\n  str: !!str yes\n  hexFloat: !!float 0x10\n  seq: !!seq [1]\n  map: !!map {a: 1}\n",
  ),
  cm('int-tag-refused', 'data:\n  a: !!int abc\n', 'refused'),
  cm('float-tag-on-uint64-refused', 'data:\n  a: !!float 18446744073709551615\n', 'refused'),
  cm(
    'anchors',
    'data:\n  a: &x [1, 0644]\n  b: *x\n  c: &y {k: *x}\n  d: [*y, *y]\n  e: &s on\n  f: {*s : 1}\n',
  ),
  cm('escapes', 'data:\n  a: "\\x41\\u00e9\\U0001F600\\N\\_\\L\\P\\e\\a\\0\\t\\ "\n  b: "\\\\/"\n'),
  cm('slash-escape-refused', 'data:\n  a: "\\/"\n', 'refused'),
  cm('quote-escape', 'data:\n  a: "\\\'"\n', {
    lightkeeperRefuses: "neither YAML 1.1 nor 1.2 has the escape \\'; only go-yaml's scanner accepts it",
  }),
  cm('duplicate-key', 'data:\n  a: 1\n  a: 2\n', {
    lightkeeperRefuses: 'a key written twice is ambiguous; go-yaml silently keeps the last one',
  }),
  cm('keys-equal-once-resolved', 'data:\n  on: 1\n  true: 2\n', {
    lightkeeperRefuses: 'on and true are the same key in YAML 1.1; go-yaml keeps one of them',
  }),
  cm('proto-key', 'data:\n  __proto__: {a: 1}\n  constructor: 1\n'),
  {
    name: 'multi-document',
    text: `---\n---\n${configMap('first', 'data: {a: 0644}\n')}---\n# only a comment\n---\n~\n---\nnull\n---\n${configMap('second', 'data: {b: on}\n')}...\n`,
  },
  {
    name: 'separator-with-content-refused',
    text: `--- !!map\n${configMap('tagged', '')}--- {apiVersion: v1, kind: ConfigMap, metadata: {name: flow}}\n`,
    outcome: 'refused',
  },
  {
    name: 'list',
    text: `apiVersion: v1\nkind: List\nitems:\n- ${configMap('item-a', 'data: {a: 0644}\n').replaceAll('\n', '\n  ').trimEnd()}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: item-b, namespace: default}\n  data: {b: yes}\n`,
  },
  {
    name: 'json',
    file: 'numbers.json',
    text: '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "json", "namespace": "default"},\n "data": {"on": 1, "big": 9007199254740993, "int64Max": 9223372036854775807, "uint64Max": 18446744073709551615,\n "float": 1.0, "e": 1e2, "negZero": -0, "small": 1.5e-7, "exactFloat": 9007199254740993.0, "text": "0644"}}\n',
  },
  {
    name: 'json-overflow-refused',
    file: 'overflow.json',
    text: '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "overflow"},\n "data": {"a": 1e400}}\n',
    outcome: 'refused',
  },
];
