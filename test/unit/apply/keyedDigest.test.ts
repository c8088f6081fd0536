import { describe, expect, it } from 'vitest';
import { keyedDigest } from '../../../lib/apply/digestKey';
import { digestOf } from '../../../lib/manifests';

const secret = (password: string) => ({
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
