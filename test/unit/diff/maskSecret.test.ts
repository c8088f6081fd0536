import { describe, expect, it } from 'vitest';
import { lastAppliedAnnotation, maskSecretPair } from '../../../lib/diff/maskSecret';
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

  it('masks the copy client-side kubectl apply keeps in the last-applied annotation', () => {
    const applied = (password: string) => ({
      ...secret({}),
      metadata: {
        name: 's',
        namespace: 'ns',
        annotations: {
          [lastAppliedAnnotation]: JSON.stringify({
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: 's', namespace: 'ns' },
            stringData: { password },
            data: { token: 'c2VjcmV0LXRva2Vu' },
          }),
          team: 'a',
        },
      },
    });
    const masked = maskSecretPair(applied('hunter2'), applied('hunter3'));
    const text = JSON.stringify(masked);
    expect(text).not.toMatch(/hunter|c2VjcmV0LXRva2Vu/);
    const annotations = (o: typeof masked.before) =>
      (o?.metadata as { annotations: Record<string, string> } | undefined)?.annotations ?? {};
    const recorded = (o: typeof masked.before) => JSON.parse(annotations(o)[lastAppliedAnnotation] ?? '{}');
    expect(recorded(masked.before)).toMatchObject({
      stringData: { password: '*****' },
      data: { token: '*****' },
    });
    expect(recorded(masked.after)).toMatchObject({
      stringData: { password: '+++++ (changed)' },
      data: { token: '*****' },
    });
    expect(annotations(masked.after).team).toBe('a');
  });

  it('hides a last-applied annotation that is no JSON object whole, and data that is no mapping', () => {
    const odd = {
      ...secret({}),
      data: 'aHVudGVyMg==',
      metadata: { name: 's', annotations: { [lastAppliedAnnotation]: 'password=hunter2' } },
    };
    expect(JSON.stringify(maskSecretPair(odd, odd))).not.toMatch(/hunter|aHVudGVy/);
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

  it('never prints the values kubectl apply recorded beside a change', () => {
    const live = {
      ...secret({ password: 'aHVudGVyMg==' }),
      metadata: {
        name: 's',
        namespace: 'ns',
        annotations: {
          [lastAppliedAnnotation]: '{"apiVersion":"v1","kind":"Secret","stringData":{"password":"hunter2"}}',
        },
      },
    };
    const desired = {
      ...live,
      data: { password: 'aHVudGVyMw==' },
      metadata: { ...live.metadata, labels: { team: 'a' } },
    };
    const text = renderObjectDiff('Secret/ns/s', live, desired);
    expect(text).toContain(lastAppliedAnnotation);
    expect(text).not.toMatch(/hunter|aHVudGVy/);
  });

  it('is empty when nothing changed', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' } };
    expect(renderObjectDiff('ConfigMap//c', cm, cm)).toBe('');
  });
});
