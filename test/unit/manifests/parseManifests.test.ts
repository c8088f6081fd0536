import { describe, expect, it } from 'vitest';
import { cachedFileBytes, type ParseCache, parseManifests } from '../../../lib/manifests';

const parse = (path: string, content: string) => parseManifests([{ path, content }]);
const messages = (path: string, content: string) => parse(path, content).errors.map((e) => e.message);

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 2
  someFutureField:
    nested: [1, "2", true, null]
  template:
    spec:
      containers:
        - name: web
          image: nginx:1.27
          x-unknown: kept
`;

describe('parseManifests: YAML', () => {
  it('reads multi-document YAML with 1-based lines, skipping empty and null documents', () => {
    const content = `---
# only a comment
---
${deployment}---
---
null
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
`;
    const { manifests, errors } = parse('app/all.yaml', content);
    expect(errors).toEqual([]);
    expect(manifests.map((m) => [m.source, m.ref])).toEqual([
      [
        { path: 'app/all.yaml', line: 4 },
        {
          apiVersion: 'apps/v1',
          group: 'apps',
          version: 'v1',
          kind: 'Deployment',
          namespace: 'shop',
          name: 'web',
        },
      ],
      [
        { path: 'app/all.yaml', line: 23 },
        { apiVersion: 'v1', group: '', version: 'v1', kind: 'ConfigMap', name: 'cfg' },
      ],
    ]);
  });

  it('keeps every field as written, including unknown fields on built-in kinds', () => {
    const [web] = parse('d.yml', deployment).manifests;
    expect(web!.object).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        replicas: 2,
        someFutureField: { nested: [1, '2', true, null] },
        template: { spec: { containers: [{ name: 'web', image: 'nginx:1.27', 'x-unknown': 'kept' }] } },
      },
    });
  });

  it('drops status and server-populated metadata only', () => {
    const content = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
  namespace: shop
  uid: 0b7a
  resourceVersion: "42"
  generation: 3
  creationTimestamp: "2024-01-01T00:00:00Z"
  deletionTimestamp: "2024-01-02T00:00:00Z"
  selfLink: /api/v1/namespaces/shop/configmaps/cfg
  managedFields: [{manager: kubectl}]
  labels: {app: shop}
  annotations: {note: keep}
data: {a: "1"}
status: {phase: Active}
`;
    const { manifests, errors } = parse('cm.yaml', content);
    expect(errors).toEqual([]);
    expect(manifests[0]!.object).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cfg', namespace: 'shop', labels: { app: 'shop' }, annotations: { note: 'keep' } },
      data: { a: '1' },
    });
  });

  it('reads scalars as YAML 1.1, as kubectl does', () => {
    const content = `apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data:
  a: yes
  b: no
  c: n
  octal: 0777
  explicitOctal: 0o17
  underscored: 1_000
  date: 2024-01-01
  quoted: "08"
  float: 1.5
  hex: 0x1F
  tagged: !!str 5
  empty:
  bool: true
  keys: {on: 1, 0644: 2}
`;
    const { manifests, errors } = parse('cm.yaml', content);
    expect(errors).toEqual([]);
    expect(manifests[0]!.object.data).toEqual({
      a: true,
      b: false,
      c: false,
      octal: 511,
      explicitOctal: 15,
      underscored: 1000,
      date: '2024-01-01',
      quoted: '08',
      float: 1.5,
      hex: 31,
      tagged: '5',
      empty: null,
      bool: true,
      keys: { true: 1, 420: 2 },
    });
  });

  it('resolves << merge keys and anchors into independent copies', () => {
    const content = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
  labels: &labels {app: shop, tier: web}
  annotations:
    <<: *labels
    tier: overridden
extra: *labels
`;
    const { manifests, errors } = parse('cm.yaml', content);
    expect(errors).toEqual([]);
    const object = manifests[0]!.object;
    expect(object.metadata.annotations).toEqual({ app: 'shop', tier: 'overridden' });
    expect(object.extra).toEqual({ app: 'shop', tier: 'web' });
    expect(object.extra).not.toBe(object.metadata.labels);
  });

  it('decodes !!binary to its text as kubectl does, and keeps a __proto__ key as plain data', () => {
    const content = `apiVersion: v1
kind: Secret
metadata: {name: s}
stringData:
  key: !!binary |
    aGVs
    bG8=
  __proto__: {polluted: true}
`;
    const { manifests, errors } = parse('s.yaml', content);
    expect(errors).toEqual([]);
    const data = manifests[0]!.object.stringData as Record<string, unknown>;
    expect(data.key).toBe('hello');
    expect(Object.hasOwn(data, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('ignores files that are not .yaml, .yml or .json, and accepts any case', () => {
    const result = parseManifests([
      { path: 'README.md', content: 'not: [yaml' },
      { path: 'x/CM.YAML', content: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n' },
    ]);
    expect(result.errors).toEqual([]);
    expect(result.manifests.map((m) => m.source.path)).toEqual(['x/CM.YAML']);
  });

  it('accepts bytes, with or without a BOM', () => {
    const bytes = new TextEncoder().encode('\uFEFFapiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n');
    const { manifests, errors } = parseManifests([{ path: 'a.yaml', content: bytes }]);
    expect(errors).toEqual([]);
    expect(manifests[0]!.object.apiVersion).toBe('v1');
  });
});

describe('parseManifests: lists', () => {
  it('expands kind: List and *List kinds into items with their own lines', () => {
    const content = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: a, namespace: x}
- apiVersion: rbac.authorization.k8s.io/v1
  kind: RoleList
  items:
  - apiVersion: rbac.authorization.k8s.io/v1
    kind: Role
    metadata: {name: r, namespace: x}
---
apiVersion: v1
kind: ConfigMapList
items: []
`;
    const { manifests, errors } = parse('list.yaml', content);
    expect(errors).toEqual([]);
    expect(manifests.map((m) => `${m.source.line} ${m.ref.kind}/${m.ref.name}`)).toEqual([
      '4 ConfigMap/a',
      '10 Role/r',
    ]);
  });

  it('refuses a bad list item at its own line and keeps the others', () => {
    const content = `kind: List
apiVersion: v1
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: a}
- apiVersion: v1
  kind: ConfigMap
  metadata: {namespace: x}
`;
    const { manifests, errors } = parse('list.yaml', content);
    expect(manifests.map((m) => m.ref.name)).toEqual(['a']);
    expect(errors.map((e) => e.message)).toEqual(['list.yaml:9: metadata.name is missing in ConfigMap']);
  });

  it('treats a *List kind without items as an ordinary object', () => {
    const { manifests, errors } = parse(
      'allow.yaml',
      'apiVersion: example.com/v1\nkind: AllowList\nmetadata: {name: a}\nspec: {}\n',
    );
    expect(errors).toEqual([]);
    expect(manifests.map((m) => m.ref.kind)).toEqual(['AllowList']);
  });
});

describe('parseManifests: JSON', () => {
  it('reads a single object', () => {
    const content = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { on: 1 },
    });
    const { manifests, errors } = parse('svc.json', content);
    expect(errors).toEqual([]);
    expect(manifests[0]).toMatchObject({
      source: { path: 'svc.json', line: 1 },
      object: { spec: { on: 1 } },
    });
  });

  it('expands a List with the line of each item', () => {
    const content = JSON.stringify(
      {
        apiVersion: 'v1',
        kind: 'List',
        items: [
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } },
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } },
        ],
      },
      null,
      '\t',
    );
    const { manifests, errors } = parse('list.json', content);
    expect(errors).toEqual([]);
    expect(manifests.map((m) => [m.ref.name, m.source.line])).toEqual([
      ['a', 5],
      ['b', 12],
    ]);
  });

  it('refuses invalid JSON with its line, even if YAML would accept it', () => {
    expect(messages('bad.json', '{\n  "apiVersion": "v1",\n  "kind": }\n')[0]).toMatch(
      /^bad\.json:3: invalid JSON: /,
    );
    expect(messages('c.json', "{\n  'kind': 'x'\n}")[0]).toMatch(/^c\.json:2: invalid JSON: /);
  });

  it('refuses a top-level array', () => {
    expect(messages('a.json', '[]')).toEqual(['a.json:1: a manifest must be a mapping, found a sequence']);
  });
});

describe('parseManifests with a cache', () => {
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: shop}\n';
  it("records each file's size, so a reader may skip a file whose parse it holds", () => {
    const cache: ParseCache = new Map();
    const file = { path: 'c.yaml', oid: 'a'.repeat(40), content: new TextEncoder().encode(cm) };
    expect(cachedFileBytes(cache, file.path, file.oid)).toBeUndefined();
    parseManifests([file], { cache });
    expect(cachedFileBytes(cache, file.path, file.oid)).toBe(cm.length);
    const again = parseManifests([{ ...file, content: new Uint8Array(0), unread: true }], { cache });
    expect(again.manifests.map((m) => m.ref.name)).toEqual(['c']);
  });

  it('fails on a file not read whose parse the cache does not hold: never an empty file', () => {
    const unread = { path: 'c.yaml', oid: 'b'.repeat(40), content: new Uint8Array(0), unread: true as const };
    expect(() => parseManifests([unread], { cache: new Map() })).toThrow(/c\.yaml .* was not read/);
  });
});
