import { describe, expect, it } from 'vitest';
import { deadEndpoint } from '../../../lib/cli/deadEndpoint';
import { InvokeError } from '../../../lib/errors';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3000'), { code: 'ECONNREFUSED' });

describe('deadEndpoint', () => {
  it('names the endpoint and npm start when nothing answers, deep in the causes', () => {
    const fetchFailed = new TypeError('fetch failed', { cause: new AggregateError([refused]) });
    const e = deadEndpoint(
      new InvokeError('could not deliver', { cause: fetchFailed }),
      'http://x/webhook',
      'webhook',
      '--webhook',
    );
    expect(e).toMatchObject({
      code: 'InvokeError',
      message:
        'nothing answers at http://x/webhook (connect ECONNREFUSED 127.0.0.1:3000): the webhook is not running there',
      hint: expect.stringContaining('is `npm start` running?'),
      cause: refused,
    });
  });

  it('keeps other errors, with the option to check for an invoke failure', () => {
    expect(
      deadEndpoint(new InvokeError('500'), 'http://x', 'reconcile function', '--endpoint'),
    ).toMatchObject({
      message: '500',
      hint: 'check --endpoint http://x',
    });
    const other = new Error('boom');
    expect(deadEndpoint(other, 'http://x', 'webhook', '--webhook')).toBe(other);
  });
});
