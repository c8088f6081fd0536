import { describe, expect, it } from 'vitest';
import { maskSecretPair } from '../../../lib/diff/maskSecret';
import { renderObjectDiff } from '../../../lib/diff/renderObjectDiff';

const secret = (data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 's', namespace: 'ns' },
  data,
});

describe('maskSecretPair', () => {
  it('hides every value, marking changed and added keys on the desired side', () => {
    const masked = maskSecretPair(
      secret({ same: 'YQ==', changed: 'Yg==', gone: 'Yw==' }),
      secret({ same: 'YQ==', changed: 'Yno=', added: 'ZA==' }),
    );
    expect(masked.before?.data).toEqual({ same: '*****', changed: '*****', gone: '*****' });
    expect(masked.after?.data).toEqual({ same: '*****', changed: '+++++ (changed)', added: '+++++ (added)' });
  });

  it('masks stringData too', () => {
    const desired = { ...secret({}), stringData: { password: 'hunter2' } };
    expect(maskSecretPair(undefined, desired).after?.stringData).toEqual({ password: '+++++ (added)' });
  });

  it('leaves other kinds alone', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' } };
    expect(maskSecretPair(cm, cm)).toEqual({ before: cm, after: cm });
  });
});

describe('renderObjectDiff', () => {
  it('shows which Secret key changed and never its values', () => {
    const text = renderObjectDiff(
      'Secret/ns/s',
      secret({ user: 'YWRtaW4=', password: 'aHVudGVyMg==' }),
      secret({ user: 'YWRtaW4=', password: 'aHVudGVyMw==' }),
    );
    expect(text).toContain('--- Secret/ns/s (live)\n+++ Secret/ns/s (desired)\n');
    expect(text).toMatch(/^- {2}password: "\*{5}"$/m);
    expect(text).toMatch(/^\+ {2}password: \+{5} \(changed\)$/m);
    expect(text).toMatch(/^ {3}user: "\*{5}"$/m);
    expect(text).not.toMatch(/YWRtaW4|aHVudGVy/);
  });

  it('is empty when nothing changed', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' } };
    expect(renderObjectDiff('ConfigMap//c', cm, cm)).toBe('');
  });
});
