import { describe, expect, it } from 'vitest';
import { parseManifests } from '../../../lib/manifests';
import { ciphertextLeft } from '../../../lib/sops/ciphertextLeft';

const enc = 'ENC[AES256_GCM,data:abc=,iv:x=,tag:y=,type:str]';

describe('ciphertextLeft', () => {
  it('names each object still holding a SOPS value, a Secret data value decoded', () => {
    const { manifests } = parseManifests([
      {
        path: 'a.yaml',
        content: [
          'apiVersion: v1',
          'kind: Secret',
          'metadata: {name: gen}',
          `data: {TOKEN: ${Buffer.from(enc).toString('base64')}}`,
          '---',
          'apiVersion: example.com/v1',
          'kind: Thing',
          'metadata: {name: t}',
          `spec: {list: [ok, "${enc}"]}`,
          '---',
          'apiVersion: v1',
          'kind: ConfigMap',
          'metadata: {name: plain}',
          'data: {a: "ENC[not sops]"}',
          '',
        ].join('\n'),
      },
    ]);
    expect(ciphertextLeft(manifests).map((e) => e.message)).toEqual([
      'a.yaml:1 (Secret/gen): data.TOKEN holds a SOPS-encrypted value that was not decrypted: it is not applied',
      'a.yaml:6 (Thing.example.com/t): spec.list.1 holds a SOPS-encrypted value that was not decrypted: it is not applied',
    ]);
  });
});
