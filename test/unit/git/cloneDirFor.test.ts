import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SALT_FILE } from '../../../lib/git/cacheSalt';
import { cloneDirFor } from '../../../lib/git/cloneDir';

const roots: string[] = [];
const newRoot = () => {
  roots.push(mkdtempSync(join(tmpdir(), 'lk-clone-key-')));
  return roots.at(-1)!;
};
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const url = 'https://git.example.invalid/private';
const token = 'tok-5ecret-value';

describe('cloneDirFor', () => {
  it('gives each set of credentials, and no credentials, a clone of its own', () => {
    const root = newRoot();
    const a = cloneDirFor(url, root, { type: 'token', token });
    expect(dirname(a)).toBe(root);
    expect(cloneDirFor(url, root, { type: 'token', token })).toBe(a);
    // The same Authorization header on the wire is the same credentials.
    expect(cloneDirFor(url, root, { type: 'basic', username: 'x-access-token', password: token })).toBe(a);
    const others = [
      cloneDirFor(url, root, undefined),
      cloneDirFor(url, root, { type: 'token', token: 'another-token' }),
      cloneDirFor(url, root, { type: 'basic', username: 'me', password: token }),
      cloneDirFor(`${url}.git`, root, { type: 'token', token }),
    ];
    expect(new Set([a, ...others]).size).toBe(5);
  });

  it('keeps one clone across a GitHub App’s rotating tokens, and none shared with another grant', () => {
    const root = newRoot();
    const a = cloneDirFor(url, root, { type: 'token', token: 'ghs_first', stableKey: 'grant-a' });
    expect(cloneDirFor(url, root, { type: 'token', token: 'ghs_second', stableKey: 'grant-a' })).toBe(a);
    const others = [
      cloneDirFor(url, root, { type: 'token', token: 'ghs_first', stableKey: 'grant-b' }),
      cloneDirFor(url, root, { type: 'token', token: 'ghs_first' }),
      cloneDirFor(url, root, { type: 'token', token: 'grant-a' }),
    ];
    expect(new Set([a, ...others]).size).toBe(4);
  });

  it('names clones with a key of the cache root, not a bare hash of URL and credentials', () => {
    const [one, two] = [newRoot(), newRoot()];
    const auth = { type: 'token', token } as const;
    expect(basename(cloneDirFor(url, one, auth))).not.toBe(basename(cloneDirFor(url, two, auth)));
    expect(cloneDirFor(url, one, auth)).toBe(cloneDirFor(url, one, auth));
    for (const material of [url + token, JSON.stringify([url, token]), url]) {
      expect(createHash('sha256').update(material).digest('hex')).not.toContain(
        basename(cloneDirFor(url, one, auth)),
      );
    }
    expect(statSync(join(one, SALT_FILE)).mode & 0o777).toBe(0o600);
  });
});
