import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
import { fetchCommit, type GitAuth } from '../../../lib/git';
import { refusePlainHttpCredentials } from '../../../lib/git/refusePlainHttpCredentials';

const token: GitAuth = { type: 'token', token: 's3cret-t0ken' };
const basic: GitAuth = { type: 'basic', username: 'me', password: 's3cret-t0ken' };
const refusal = (url: string, auth: GitAuth | undefined) => {
  try {
    refusePlainHttpCredentials(url, auth);
    return undefined;
  } catch (error) {
    return error as Error;
  }
};

describe('refusePlainHttpCredentials', () => {
  it.each([
    ['http://git.example.invalid/repo', token],
    ['http://git.example.invalid/repo', basic],
    ['http://192.0.2.2:8080/repo', token],
    ['HTTP://Git.Example.Invalid/repo', token],
    ['http://localhost.example.invalid/repo', token],
    ['http://127.0.0.1.example.invalid/repo', token],
    ['http://[::ffff:127.0.0.1]/repo', token],
  ] as const)('refuses credentials over plain http to %s', (url, auth) => {
    const error = refusal(url, auth);
    expect(hasCode(error, 'GitFetchError')).toBe(true);
    expect(error?.message).toMatch(/^refusing to send credentials over plain http to /);
  });

  it('counts credentials in the URL as credentials, and does not print them', () => {
    const error = refusal('http://me:s3cret-t0ken@git.example.invalid/repo', undefined);
    expect(error?.message).toBe(
      'refusing to send credentials over plain http to http://git.example.invalid/repo: only https, or http to a loopback address (127.0.0.0/8, ::1, localhost), carries them',
    );
    expect((error as { subject?: string }).subject).toBe('http://git.example.invalid/repo');
  });

  it.each([
    // isomorphic-git takes everything up to this `@` for credentials and sends them to the host after it.
    'http://127.0.0.1\\@git.example.invalid/repo',
    'http://localhost\\@git.example.invalid/repo',
    ' http://127.0.0.1/repo',
    'https::http://git.example.invalid/repo',
    'not a url',
  ])('refuses credentials with the ambiguous URL %j', (url) => {
    expect(refusal(url, token)?.message).toMatch(/^refusing to send credentials (over plain http )?to /);
  });

  it.each([
    ['https://git.example.invalid/repo', token],
    ['https://me:s3cret-t0ken@git.example.invalid/repo', undefined],
    ['http://127.0.0.1:8080/repo', token],
    ['http://127.200.3.4/repo', basic],
    ['http://localhost/repo', token],
    ['HTTP://LocalHost:9/repo', token],
    ['http://[::1]:9/repo', token],
    ['http://me:s3cret-t0ken@127.0.0.1:9/repo', undefined],
    ['http://git.example.invalid/repo', undefined],
  ] as const)('lets %s through', (url, auth) => {
    expect(refusal(url, auth)).toBeUndefined();
  });

  it('makes fetchCommit fail before any request or any file is written', async () => {
    const cacheRoot = join(tmpdir(), `lk-never-created-${process.pid}-${Date.now()}`);
    const url = 'http://git.example.invalid/private';
    const error = await fetchCommit({ url, reference: 'main', auth: token, cacheRoot }).catch((e) => e);
    expect(hasCode(error, 'GitFetchError')).toBe(true);
    // Had a request been attempted, the error would be about the name that does not resolve.
    expect(error.message).toMatch(
      /^refusing to send credentials over plain http to http:\/\/git\.example\.invalid\/private: /,
    );
    expect(existsSync(cacheRoot)).toBe(false);
  });
});
