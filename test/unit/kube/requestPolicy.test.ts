import { describe, expect, it } from 'vitest';
import {
  backoff,
  defaultRequestPolicy,
  type RequestFailure,
  requestPolicyFromEnv,
  retryDelay,
} from '../../../lib/kube/requestPolicy';
import { transportFailure } from '../../../lib/kube/transportFailure';

const policy = { ...defaultRequestPolicy, attempts: 4, baseDelayMs: 100, maxDelayMs: 1000 };
const notSent: RequestFailure = { kind: 'transport', sent: false, transient: true };
const noAnswer: RequestFailure = { kind: 'transport', sent: true, transient: true };
const tlsRefused: RequestFailure = { kind: 'transport', sent: true, transient: false };
const status = (s: number, retryAfterMs?: number): RequestFailure => ({
  kind: 'status',
  status: s,
  ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
});
const half = () => 0.5;

describe('retryDelay', () => {
  it('retries a read on transport failures, 5xx and 429, up to the attempts', () => {
    for (const failure of [notSent, noAnswer, status(500), status(503), status(429)])
      expect(retryDelay('GET', failure, 1, policy, half)).toBeTypeOf('number');
    expect(retryDelay('GET', noAnswer, 3, policy, half)).toBeTypeOf('number');
    expect(retryDelay('GET', noAnswer, 4, policy, half)).toBeUndefined();
  });

  it('never retries an answer about the request itself, nor a refusal that will not change', () => {
    for (const s of [400, 401, 403, 404, 409, 422])
      expect(retryDelay('GET', status(s), 1, policy, half)).toBeUndefined();
    expect(retryDelay('GET', tlsRefused, 1, policy, half)).toBeUndefined();
  });

  it('retries a write only when the server certainly did not act', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      expect(retryDelay(method, notSent, 1, policy, half)).toBeTypeOf('number');
      expect(retryDelay(method, status(429, 700), 1, policy, half)).toBe(700);
      expect(retryDelay(method, noAnswer, 1, policy, half)).toBeUndefined();
      expect(retryDelay(method, status(500), 1, policy, half)).toBeUndefined();
      expect(retryDelay(method, status(503), 1, policy, half)).toBeUndefined();
    }
  });

  it("waits for the server's Retry-After on 429, with a budget of its own", () => {
    expect(retryDelay('GET', status(429, 1500), 10, policy, half)).toBe(1500);
    expect(retryDelay('GET', status(429, 1500), policy.throttledAttempts, policy, half)).toBeUndefined();
  });
});

describe('backoff', () => {
  it('doubles from the base up to the cap, half of it jittered', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoff(a, policy, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([1, 2, 3, 4, 5, 6].map((a) => backoff(a, policy, () => 1))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    const seen = new Set(Array.from({ length: 50 }, () => backoff(3, policy)));
    expect(seen.size).toBeGreaterThan(10);
    for (const d of seen) expect(d).toBeGreaterThanOrEqual(200);
  });
});

describe('requestPolicyFromEnv', () => {
  it('reads the deadlines and attempts, and refuses nonsense', () => {
    expect(requestPolicyFromEnv({})).toEqual(defaultRequestPolicy);
    expect(
      requestPolicyFromEnv({
        LIGHTKEEPER_CONNECT_TIMEOUT_MS: '500',
        LIGHTKEEPER_REQUEST_TIMEOUT_MS: '2000',
        LIGHTKEEPER_REQUEST_ATTEMPTS: '2',
      }),
    ).toMatchObject({ connectTimeoutMs: 500, responseTimeoutMs: 2000, attempts: 2 });
    expect(() => requestPolicyFromEnv({ LIGHTKEEPER_REQUEST_TIMEOUT_MS: '10s' })).toThrow(
      'LIGHTKEEPER_REQUEST_TIMEOUT_MS=10s is not accepted: expected a whole number of at least 1 (milliseconds)',
    );
  });
});

describe('transportFailure', () => {
  const failure = (code: string, message = code) =>
    transportFailure(Object.assign(new Error(message), { code }), {
      ...policy,
      connectTimeoutMs: 500,
      responseTimeoutMs: 10_000,
    });

  it('tells a request that never left from one the server may have acted on', () => {
    expect(failure('UND_ERR_CONNECT_TIMEOUT')).toEqual({
      kind: 'transport',
      sent: false,
      transient: true,
      detail: 'no connection within 0.5 s',
    });
    expect(failure('ECONNREFUSED')).toMatchObject({
      sent: false,
      transient: true,
      detail: 'connection refused',
    });
    expect(failure('UND_ERR_HEADERS_TIMEOUT')).toMatchObject({
      sent: true,
      transient: true,
      detail: 'no response within 10 s',
    });
    expect(failure('ECONNRESET', 'read ECONNRESET')).toMatchObject({ sent: true, transient: true });
    expect(failure('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate')).toMatchObject({
      transient: false,
      detail: 'self-signed certificate',
    });
  });
});
