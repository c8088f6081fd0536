import { describe, expect, it } from 'vitest';
import { maskValuesPair } from '../../../lib/diff/maskDecrypted';
import { lastAppliedAnnotation } from '../../../lib/diff/maskSecret';
import { renderObjectDiff } from '../../../lib/diff/renderObjectDiff';
import { decryptedAnnotation } from '../../../lib/manifests/metadataKeys';

const configMap = (data: Record<string, string>, annotations: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'ns', annotations: { [decryptedAnnotation]: 'sops', ...annotations } },
  data,
});

describe('maskValuesPair', () => {
  it('hides every value of a decrypted object of any kind, keys visible, changes marked', () => {
    const masked = maskValuesPair(
      configMap({ same: 'plain-a', changed: 'plain-b', gone: 'plain-c' }),
      configMap({ same: 'plain-a', changed: 'plain-z', added: 'plain-d' }),
    );
    expect(masked.before?.data).toEqual({ same: '*****', changed: '*****', gone: '*****' });
    expect(masked.after?.data).toEqual({ same: '*****', changed: '+++++ (changed)', added: '+++++ (added)' });
    expect(masked.after?.metadata).toEqual(configMap({}).metadata);
  });

  it('masks nested values and lists of a custom kind, and its last-applied copy', () => {
    const object = (password: string) => ({
      apiVersion: 'example.com/v1',
      kind: 'Database',
      metadata: {
        name: 'db',
        annotations: { [decryptedAnnotation]: 'sops', [lastAppliedAnnotation]: `{"spec":"${password}"}` },
      },
      spec: { users: [{ name: 'app', password }], port: 5432 },
    });
    const text = renderObjectDiff('Database/db', object('old-secret'), object('new-secret'));
    expect(text).not.toContain('old-secret');
    expect(text).not.toContain('new-secret');
    expect(text).not.toContain('5432');
    expect(text).toContain('+++++ (changed)');
  });

  it('masks when only the live side is marked (the mark left the manifest)', () => {
    const live = configMap({ token: 'plain-a' });
    const desired = { ...live, metadata: { name: 'c', namespace: 'ns' } };
    expect(maskValuesPair(live, desired).after?.data).toEqual({ token: '*****' });
  });

  it('leaves an object that was not decrypted as it is, and a Secret masked as before', () => {
    const plain = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p' }, data: { a: 'b' } };
    expect(maskValuesPair(plain, plain)).toEqual({ before: plain, after: plain });
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 'Yg==' } };
    expect(maskValuesPair(undefined, secret).after?.data).toEqual({ a: '+++++ (added)' });
  });
});
