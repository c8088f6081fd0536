import { inspect } from 'node:util';
import { Errors } from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
import { toGitFetchError } from '../../../lib/git/toGitFetchError';

// What a server under the tenant's control (or an internal service it points at) sent back.
const MARKER = 'INTERNAL-ONLY-7f3a';
const body = `<html><body>${MARKER} admin console</body></html>`;
const url = 'http://me:s3cret@127.0.0.1:9/repo';
const where = 'http://127.0.0.1:9/repo';

describe('toGitFetchError', () => {
  it.each([
    [new Errors.HttpError(404, `Not Found ${MARKER}`, body), `could not fetch ${where} (HTTP 404)`],
    [new Errors.HttpError(500, 'Internal Server Error', body), `could not fetch ${where} (HTTP 500)`],
    [new Errors.HttpError(401, MARKER, body), `authentication failed for ${where} (HTTP 401)`],
    [new Errors.HttpError(403, 'Forbidden', body), `authentication failed for ${where} (HTTP 403)`],
    [
      new Errors.SmartHttpError(body, body),
      `could not fetch ${where}: the server did not answer with the git smart-HTTP protocol`,
    ],
    [
      new Errors.ParseError('001e# service=git-upload-pack', body),
      `could not fetch ${where}: the server sent a response that is not valid git protocol`,
    ],
    [
      new Errors.InternalError(`Invalid PACK header '${MARKER}'`),
      `could not fetch ${where}: the server sent data that could not be read`,
    ],
    [new Error(`unexpected ${MARKER}`), `could not fetch ${where}: the transfer failed`],
    [new Error('too many redirects'), `could not fetch ${where}: too many redirects`],
  ])('reports %s by status or kind and the redacted URL only', (error, message) => {
    const wrapped = toGitFetchError(error, url);
    expect(hasCode(wrapped, 'GitFetchError')).toBe(true);
    expect(wrapped.message).toBe(message);
    expect(wrapped.subject).toBe(where);
    expect(inspect(wrapped, { depth: 10 })).not.toContain(MARKER);
    expect(inspect(wrapped, { depth: 10 })).not.toContain('s3cret');
  });

  it('keeps a connection failure, which carries nothing the server sent, as the cause', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
    });
    const wrapped = toGitFetchError(refused, url);
    expect(wrapped.message).toBe(`could not fetch ${where}: connection failed (ECONNREFUSED)`);
    expect(wrapped.cause).toBe(refused);
  });
});
