import { describe, expect, it } from 'vitest';
import { parseManifests } from '../../../lib/manifests';
import { decryptedAnnotation } from '../../../lib/manifests/metadataKeys';
import { decryptedManifests } from '../../../lib/sops/decryptedManifests';
import { encryptedParts, formatForKey } from '../../../lib/sops/sopsDocuments';

const encValue = 'ENC[AES256_GCM,data:abc=,iv:x=,tag:y=,type:str]';
const sopsYaml = `password: ${encValue}\nsops:\n  mac: ${encValue}\n  version: 3.13.3\n`;

const files = [
  {
    path: 'whole.yaml',
    content: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: whole\ndata:\n  a: ${encValue}\nsops:\n  mac: ${encValue}\n  version: 3.13.3\n`,
  },
  {
    path: 'entries.yaml',
    content: [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: entries',
      'data:',
      `  app.yaml: ${Buffer.from(sopsYaml).toString('base64')}`,
      `  plain: ${Buffer.from('not encrypted').toString('base64')}`,
      'stringData:',
      '  key.env: |',
      `    TOKEN=${encValue}`,
      `    sops_mac=${encValue}`,
      '',
    ].join('\n'),
  },
  {
    path: 'plain.yaml',
    content: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\ndata:\n  sops: x\n',
  },
];

describe('encryptedParts', () => {
  const { manifests } = parseManifests(files);

  it('finds whole objects with sops metadata (as JSON) and Secret entries that are SOPS documents', () => {
    const parts = encryptedParts(manifests);
    expect(parts.targets).toEqual([
      { manifest: 0, kind: 'object' },
      { manifest: 1, kind: 'entry', field: 'data', key: 'app.yaml' },
      { manifest: 1, kind: 'entry', field: 'stringData', key: 'key.env' },
    ]);
    expect(parts.documents.map((d) => [d.id, d.format])).toEqual([
      ['0', 'json'],
      ['1', 'yaml'],
      ['2', 'dotenv'],
    ]);
    expect(JSON.parse(parts.documents[0]?.data.toString() ?? '').sops.version).toBe('3.13.3');
    expect(parts.documents[1]?.data.toString()).toBe(sopsYaml);
  });

  it('names formats as sops does by the file name', () => {
    expect(['a.yml', 'a.json', 'a.env', 'a.ini', 'id_rsa'].map(formatForKey)).toEqual([
      'yaml',
      'json',
      'dotenv',
      'ini',
      'binary',
    ]);
  });
});

describe('decryptedManifests', () => {
  const { manifests } = parseManifests(files);
  const { targets } = encryptedParts(manifests);
  const wholePlain = Buffer.from(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'whole' },
      data: { a: 'plain-a' },
    }),
  );

  it('puts each plaintext in place on new objects, marked, the parsed ones untouched', () => {
    const before = JSON.stringify(manifests);
    const out = decryptedManifests(manifests, targets, [
      { data: wholePlain },
      { data: Buffer.from('password: plain-b\n') },
      { data: Buffer.from('TOKEN=plain-c\n') },
    ]);
    expect(out.errors).toEqual([]);
    expect(out.manifests.map((m) => m.ref.name)).toEqual(['whole', 'entries', 'plain']);
    const [whole, entries, plain] = out.manifests;
    expect(whole?.object.data).toEqual({ a: 'plain-a' });
    expect(whole?.object.sops).toBeUndefined();
    expect(whole?.source).toEqual(manifests[0]?.source);
    expect(entries?.object.data).toMatchObject({
      'app.yaml': Buffer.from('password: plain-b\n').toString('base64'),
    });
    expect(entries?.object.stringData).toEqual({ 'key.env': 'TOKEN=plain-c\n' });
    for (const m of [whole, entries])
      expect(m?.object.metadata.annotations).toEqual({ [decryptedAnnotation]: 'sops' });
    expect(plain).toBe(manifests[2]);
    expect(JSON.stringify(manifests)).toBe(before);
  });

  it('leaves out an object a part of which failed, naming the file, the object and the field', () => {
    const out = decryptedManifests(manifests, targets, [
      { data: wholePlain },
      { error: 'no matching key' },
      { data: Buffer.from('TOKEN=plain-c\n') },
    ]);
    expect(out.manifests.map((m) => m.ref.name)).toEqual(['whole', 'plain']);
    expect(out.errors.map((e) => e.message)).toEqual([
      'entries.yaml:1 (Secret/entries): cannot decrypt (data.app.yaml): no matching key',
    ]);
  });

  it('refuses a decrypted object that is not a Kubernetes object', () => {
    const out = decryptedManifests(manifests, targets.slice(0, 1), [
      { data: Buffer.from('{"kind":"ConfigMap"}') },
    ]);
    expect(out.manifests.map((m) => m.ref.name)).toEqual(['entries', 'plain']);
    expect(out.errors[0]?.message).toMatch(
      /^whole.yaml:1 \(ConfigMap\/whole\): cannot decrypt: the decrypted object/,
    );
  });
});
