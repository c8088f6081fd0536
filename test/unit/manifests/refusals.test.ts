import { describe, expect, it } from 'vitest';
import { ManifestError } from '../../../lib/errors';
import { parseManifests } from '../../../lib/manifests';

const good = (name: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: shop\n`;

/** Parses `bad` between two good documents; the good ones must survive. */
const refuse = (bad: string, path = 'bad.yaml') => {
  const { manifests, errors } = parseManifests([
    { path, content: `${good('before')}---\n${bad}---\n${good('after')}` },
  ]);
  expect(manifests.map((m) => m.ref.name)).toEqual(['before', 'after']);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toBeInstanceOf(ManifestError);
  return errors[0]!;
};

// `bad` starts on line 7 of the combined file.
describe('parseManifests refuses, naming path and line', () => {
  it('a YAML syntax error', () => {
    const error = refuse('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x\ndata: 1\n');
    expect(error.message).toBe(
      'bad.yaml:10: invalid YAML: Flow map in block collection must be sufficiently indented and end with a }',
    );
  });

  it('duplicate keys in a mapping', () => {
    const error = refuse('apiVersion: v1\nkind: ConfigMap\nkind: Secret\nmetadata: {name: x}\n');
    expect(error.message).toBe('bad.yaml:9: invalid YAML: Map keys must be unique');
  });

  it('a document that is not a mapping', () => {
    expect(refuse('- a\n- b\n').message).toBe('bad.yaml:7: a manifest must be a mapping, found a sequence');
    expect(refuse('just text\n').message).toBe(
      'bad.yaml:7: a manifest must be a mapping, found string "just text"',
    );
  });

  it('missing or non-string apiVersion', () => {
    expect(refuse('kind: ConfigMap\nmetadata: {name: x}\n').message).toBe(
      'bad.yaml:7: apiVersion is missing',
    );
    expect(refuse('kind: ConfigMap\napiVersion: 1\nmetadata: {name: x}\n').message).toBe(
      'bad.yaml:8: apiVersion must be a string, found number 1',
    );
    expect(refuse('apiVersion: a/b/c\nkind: X\nmetadata: {name: x}\n').message).toBe(
      'bad.yaml:7: apiVersion "a/b/c" is not of the form "version" or "group/version"',
    );
  });

  it('missing or non-string kind', () => {
    expect(refuse('apiVersion: v1\nmetadata: {name: x}\n').message).toBe('bad.yaml:7: kind is missing');
    expect(refuse('apiVersion: v1\nmetadata: {name: x}\nkind: [a]\n').message).toBe(
      'bad.yaml:9: kind must be a non-empty string, found a sequence',
    );
  });

  it('missing metadata or metadata.name', () => {
    expect(refuse('apiVersion: apps/v1\nkind: Deployment\n').message).toBe(
      'bad.yaml:7: metadata is missing in Deployment.apps',
    );
    expect(refuse('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {a: b}\n').message).toBe(
      'bad.yaml:9: metadata.name is missing in ConfigMap',
    );
    expect(refuse('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 12\n').message).toBe(
      'bad.yaml:10: metadata.name must be a non-empty string, found number 12',
    );
    expect(refuse('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: [x]\n').message).toBe(
      'bad.yaml:11: metadata.namespace must be a string, found a sequence',
    );
  });

  it('generateName without name', () => {
    expect(refuse('apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: migrate-\n').message).toBe(
      'bad.yaml:10: metadata.generateName is not supported (in Job.batch); set metadata.name',
    );
  });

  it('metadata.ownerReferences, naming the object', () => {
    const error = refuse(
      'apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web\n  namespace: shop\n  ownerReferences: []\n',
    );
    expect(error.message).toBe(
      'bad.yaml:12 (ReplicaSet.apps/shop/web): manifests must not declare metadata.ownerReferences; ownership is managed by lightkeeper',
    );
    expect(error).toMatchObject({ path: 'bad.yaml', line: 12, object: 'ReplicaSet.apps/shop/web' });
  });

  it('values kubectl cannot send either', () => {
    expect(refuse('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  n: .inf\n').message).toBe(
      'bad.yaml:11: Infinity is not a JSON number',
    );
    expect(refuse('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nt: !!int abc\n').message).toBe(
      'bad.yaml:10: cannot decode !!str `abc` as a !!int',
    );
  });

  it('an alias that contains itself', () => {
    expect(refuse('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nloop: &a [*a]\n').message).toBe(
      'bad.yaml:10: recursive alias: a value contains itself',
    );
  });
});

describe('parseManifests refuses whole files', () => {
  it('larger than maxFileBytes, without reading them, and keeps other files', () => {
    const { manifests, errors } = parseManifests(
      [
        { path: 'big.yaml', content: `${good('big')}data: {x: "${'é'.repeat(600)}"}\n` },
        { path: 'small.yaml', content: good('small') },
        { path: 'bytes.json', content: new Uint8Array(1025) },
      ],
      { maxFileBytes: 1024 },
    );
    expect(manifests.map((m) => m.ref.name)).toEqual(['small']);
    expect(errors.map((e) => e.message)).toEqual([
      // 'é' is two bytes in UTF-8: the limit counts bytes, not characters.
      'big.yaml: file is 1285 bytes, over the limit of 1024 bytes',
      'bytes.json: file is 1025 bytes, over the limit of 1024 bytes',
    ]);
  });

  it('defaults the limit to 5 MiB', () => {
    const content = `${good('x')}data: {x: "${'a'.repeat(5 * 1024 * 1024)}"}\n`;
    expect(parseManifests([{ path: 'huge.yaml', content }]).errors[0]!.message).toMatch(
      /^huge\.yaml: file is \d+ bytes, over the limit of 5242880 bytes$/,
    );
  });

  it('that are not UTF-8', () => {
    const { errors } = parseManifests([
      { path: 'latin1.yaml', content: new Uint8Array([0x61, 0x3a, 0x20, 0xe9]) },
    ]);
    expect(errors.map((e) => e.message)).toEqual(['latin1.yaml: file is not valid UTF-8']);
  });
});

describe('parseManifests refuses duplicates', () => {
  it('within a file, naming both locations', () => {
    const { manifests, errors } = parseManifests([
      { path: 'a.yaml', content: `${good('x')}---\n${good('x')}` },
    ]);
    expect(manifests).toHaveLength(1);
    expect(manifests[0]!.source.line).toBe(1);
    expect(errors.map((e) => e.message)).toEqual([
      'a.yaml:7 (ConfigMap/shop/x): the same object is also defined at a.yaml:1; each object may be defined only once',
    ]);
  });

  it('across files and formats, across versions, but not across groups or namespaces', () => {
    const json = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x', namespace: 'shop' },
    });
    const { manifests, errors } = parseManifests([
      { path: 'a.yaml', content: good('x') },
      { path: 'b/c.json', content: json },
      { path: 'd.yaml', content: good('x').replace('apiVersion: v1', 'apiVersion: example.com/v1') },
      { path: 'e.yaml', content: good('x').replace('namespace: shop', 'namespace: other') },
      { path: 'f.yaml', content: good('x').replace('namespace: shop', 'labels: {}') },
    ]);
    expect(manifests).toHaveLength(4);
    expect(errors.map((e) => e.message)).toEqual([
      'b/c.json:1 (ConfigMap/shop/x): the same object is also defined at a.yaml:1; each object may be defined only once',
    ]);
  });

  it('within a List', () => {
    const content = `apiVersion: v1
kind: List
items:
- {apiVersion: apps/v1, kind: Deployment, metadata: {name: w}}
- {apiVersion: apps/v2, kind: Deployment, metadata: {name: w}}
`;
    const { errors } = parseManifests([{ path: 'l.yaml', content }]);
    expect(errors.map((e) => e.message)).toEqual([
      'l.yaml:5 (Deployment.apps/w): the same object is also defined at l.yaml:4; each object may be defined only once',
    ]);
  });
});
