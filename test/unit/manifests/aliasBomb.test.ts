import { describe, expect, it } from 'vitest';
import { parseManifests } from '../../../lib/manifests';

/** The classic "billion laughs": 10 levels of 10 aliases each expand to 10^9 strings if resolved. */
const billionLaughs = (() => {
  const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: lol}', 'a0: &a0 "lol"'];
  for (let level = 1; level <= 9; level++) {
    const previous = `*a${level - 1}`;
    lines.push(`a${level}: &a${level} [${Array(10).fill(previous).join(', ')}]`);
  }
  return `${lines.join('\n')}\n`;
})();

describe('YAML alias expansion', () => {
  it('refuses a billion-laughs document fast, without exhausting memory', () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const { manifests, errors } = parseManifests([
      { path: 'lol.yaml', content: billionLaughs },
      { path: 'ok.yaml', content: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n' },
    ]);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(100 * 1024 * 1024);
    expect(manifests.map((m) => m.ref.name)).toEqual(['ok']);
    expect(errors.map((e) => e.message)).toEqual([
      'lol.yaml:1: YAML aliases expand too much (over maxAliasCount 100); refusing a possible "billion laughs" document',
    ]);
  });

  it('refuses a large anchor aliased many times even within maxAliasCount', () => {
    const big = `[${Array(20_000).fill('1').join(',')}]`;
    const content = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nbase: &b ${big}\ncopies: [${Array(50).fill('*b').join(', ')}]\n`;
    const { errors } = parseManifests([{ path: 'wide.yaml', content }]);
    expect(errors[0]!.message).toMatch(/^wide\.yaml:5: aliases expand the document beyond \d+ values$/);
  });

  it('allows ordinary anchors and the configured maxAliasCount', () => {
    const content = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nbase: &b {k: v}\nuses: [${Array(20).fill('*b').join(', ')}]\n`;
    expect(parseManifests([{ path: 'a.yaml', content }]).errors).toEqual([]);
    const refused = parseManifests([{ path: 'a.yaml', content }], { maxAliasCount: 10 }).errors;
    expect(refused[0]!.message).toContain('over maxAliasCount 10');
  });
});
