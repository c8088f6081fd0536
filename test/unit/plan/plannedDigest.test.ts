import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestOf, type KubeObject } from '../../../lib/manifests';
import { keyedDigest, plannedDigest } from '../../../lib/plan/plannedDigest';

const secret = (password: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'db', namespace: 'team-a' },
  stringData: { password },
});

describe('keyedDigest', () => {
  const key = Buffer.alloc(32, 7);

  it('is equal for equal manifests and differs for a changed value, under one key', () => {
    expect(keyedDigest(key, digestOf(secret('hunter2')))).toBe(keyedDigest(key, digestOf(secret('hunter2'))));
    expect(keyedDigest(key, digestOf(secret('hunter2')))).not.toBe(
      keyedDigest(key, digestOf(secret('hunter3'))),
    );
  });

  it('cannot be recomputed without the key: neither the plain digest nor another key gives it', () => {
    const shown = keyedDigest(key, digestOf(secret('hunter2')));
    expect(shown).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(shown).not.toBe(digestOf(secret('hunter2')));
    expect(keyedDigest(Buffer.alloc(32, 8), digestOf(secret('hunter2')))).not.toBe(shown);
  });
});

describe('plannedDigest', () => {
  const key = Buffer.alloc(32, 7);
  const hmac = (digest: string) => `sha256:${createHmac('sha256', key).update(digest).digest('hex')}`;

  // Tracking objects record these values: a different formula would re-apply every object once.
  it('is the keyed manifest digest when nothing is ignored', () => {
    expect(plannedDigest(secret('a'), [], key)).toBe(hmac(digestOf(secret('a'))));
    expect(plannedDigest(secret('a'), [], undefined)).toBe(digestOf(secret('a')));
  });

  it('covers the ignored pointers, in any order, as tracking objects have recorded them', () => {
    const ignore = [
      ['stringData', 'password'],
      ['metadata', 'labels'],
    ];
    const plain = digestOf(secret('a'));
    const covered = `sha256:${createHash('sha256')
      .update(`${plain}\nignore ["metadata","labels"]\n["stringData","password"]`)
      .digest('hex')}`;
    expect(plannedDigest(secret('a'), ignore, undefined)).toBe(covered);
    expect(plannedDigest(secret('a'), ignore, key)).toBe(hmac(covered));
    expect(plannedDigest(secret('a'), [...ignore].reverse(), key)).toBe(hmac(covered));
    expect(plannedDigest(secret('a'), ignore.slice(1), key)).not.toBe(hmac(covered));
  });
});
