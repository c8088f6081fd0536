import { describe, expect, it } from 'vitest';
import { answerError } from '../../../lib/kube/answerError';

describe('answerError', () => {
  it("takes reason and message from the server's Status, naming the subject", () => {
    const e = answerError(
      409,
      JSON.stringify({ kind: 'Status', reason: 'AlreadyExists', message: 'configmaps "c" already exists' }),
      undefined,
      'ConfigMap/team-a/c',
    );
    expect(e.status).toBe(409);
    expect(e.reason).toBe('AlreadyExists');
    expect(e.message).toBe('ConfigMap/team-a/c: configmaps "c" already exists');
    expect(e.retryAfterMs).toBeUndefined();
  });

  it('keeps the start of a body that is no Status', () => {
    const e = answerError(502, `<html>${'x'.repeat(3000)}`, undefined, 'GET /api');
    expect(e.reason).toBeUndefined();
    expect(e.message).toBe(`GET /api: <html>${'x'.repeat(1994)}`);
  });

  it("waits a 429's Retry-After, at most 2 s, 1 s when it is unreadable", () => {
    expect(answerError(429, '{}', '1', 's').retryAfterMs).toBe(1000);
    expect(answerError(429, '{}', '30', 's').retryAfterMs).toBe(2000);
    expect(answerError(429, '{}', 'soon', 's').retryAfterMs).toBe(1000);
    expect(answerError(429, '{}', undefined, 's').retryAfterMs).toBe(1000);
  });
});
