import { describe, expect, it } from 'vitest';
import { canonicalJson, digestOf } from '../../../lib/manifests';

describe('canonicalJson', () => {
  it('sorts keys recursively, keeps array order and has no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: 'x' }], c: true } })).toBe(
      '{"a":{"c":true,"d":[3,{"y":"x","z":null}]},"b":1}',
    );
  });

  it('escapes keys and strings as JSON', () => {
    expect(canonicalJson({ 'a"b': 'line\nbreak' })).toBe('{"a\\"b":"line\\nbreak"}');
  });
});

describe('digestOf', () => {
  it('is sha256 of the canonical JSON', () => {
    // sha256 of the two bytes "{}"
    expect(digestOf({})).toBe('sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  });

  it('is stable across key order', () => {
    const a = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { a: '1', b: '2' } } };
    const b = { metadata: { labels: { b: '2', a: '1' }, name: 'x' }, kind: 'ConfigMap', apiVersion: 'v1' };
    expect(digestOf(a)).toBe(digestOf(b));
    expect(digestOf(a)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('changes with any value, array order, or type', () => {
    const base = digestOf({ a: [1, 2] });
    expect(digestOf({ a: [2, 1] })).not.toBe(base);
    expect(digestOf({ a: ['1', 2] })).not.toBe(base);
    expect(digestOf({ a: [1, 2], b: null })).not.toBe(base);
  });
});
