import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders, pingPayload, pushPayload } from '../../../lib/localstack/pushPayload';
import type { ReconcileEvent } from '../../../lib/reconcile/reconcileEvent';
import type { ListedTrack } from '../../../lib/track/listedTrack';
import { type Delivery, type DeliveryOptions, handleDelivery } from '../../../lib/webhook/handleDelivery';

const secret = 'unit-secret';
const url = 'https://github.com/codertocat/hello-world';
const tracks: ListedTrack[] = [
  {
    ref: { kind: 'GitTrack', namespace: 'team', name: 'app' },
    spec: { repository: url, reference: 'master' },
  },
  { ref: { kind: 'ClusterGitTrack', name: 'tags' }, spec: { repository: url, reference: 'simple-tag' } },
];

function setup(overrides: Partial<DeliveryOptions> = {}) {
  const triggered: ReconcileEvent[] = [];
  let listed = 0;
  const options: DeliveryOptions = {
    secrets: [secret],
    config: { gitTrackMode: 'Enabled', clusterGitTrackMode: 'IncludeNamespaced' },
    listTracks: async () => {
      listed++;
      return tracks;
    },
    trigger: async (event) => {
      triggered.push(event);
    },
    ...overrides,
  };
  return { options, triggered, listed: () => listed };
}

async function signed(payload: unknown, event = 'push', delivery = 'd-1'): Promise<Delivery> {
  const body = JSON.stringify(payload);
  return { headers: await deliveryHeaders(body, secret, event, delivery), body };
}

describe('handleDelivery', () => {
  it('triggers one apply per matching track, naming the delivery and head, never pinning it', async () => {
    const { options, triggered } = setup();
    const result = await handleDelivery(await signed(pushPayload('branch-created')), options);
    expect(result).toMatchObject({ outcome: 'triggered', delivery: 'd-1', event: 'push', failed: [] });
    expect(triggered).toEqual([
      {
        track: tracks[0]!.ref,
        mode: 'apply',
        reason: 'push d-1 6113728f27ae82c7b1a177c8d03f9e96e0adf246',
        push: {
          after: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
          committedAt: '2019-05-15T15:19:25Z',
          delivery: 'd-1',
        },
      },
    ]);
    expect(triggered[0]).not.toHaveProperty('commit');
  });

  it('accepts a base64-encoded body and a form-encoded delivery', async () => {
    const { options, triggered } = setup();
    const delivery = await signed(pushPayload('branch-created'));
    const base64 = {
      ...delivery,
      body: Buffer.from(delivery.body as string).toString('base64'),
      isBase64Encoded: true,
    };
    expect(await handleDelivery(base64, options)).toMatchObject({ outcome: 'triggered' });
    const form = `payload=${encodeURIComponent(JSON.stringify(pushPayload('tag-created')))}`;
    const headers = {
      ...(await deliveryHeaders(form, secret)),
      'content-type': 'application/x-www-form-urlencoded',
    };
    expect(await handleDelivery({ headers, body: form }, options)).toMatchObject({ outcome: 'triggered' });
    expect(triggered.map((t) => t.track.name)).toEqual(['app', 'tags']);
  });

  it('rejects bad signatures, oversized and malformed bodies before listing anything', async () => {
    const { options, triggered, listed } = setup({ maxBodyBytes: 64 * 1024 });
    const body = JSON.stringify(pushPayload('branch-created'));
    const good = await deliveryHeaders(body, secret);
    const sha1 = `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
    const { 'x-hub-signature-256': _, ...unsigned } = good;
    const cases: Array<[Delivery, string]> = [
      [{ headers: await deliveryHeaders(body, 'forged'), body }, 'unauthorized'],
      [{ headers: unsigned, body }, 'unauthorized'],
      [{ headers: { ...unsigned, 'x-hub-signature': sha1 }, body }, 'unauthorized'],
      [{ headers: good, body: `${body} ` }, 'unauthorized'],
      [{ headers: good, body: 'x'.repeat(64 * 1024 + 1) }, 'too-large'],
      [{ headers: await deliveryHeaders('{"ref":', secret), body: '{"ref":' }, 'malformed'],
      [await signed({ ref: 'refs/heads/master' }), 'malformed'],
    ];
    for (const [delivery, outcome] of cases) {
      expect((await handleDelivery(delivery, options)).outcome).toBe(outcome);
    }
    expect(triggered).toEqual([]);
    expect(listed()).toBe(0);
  });

  it('answers pings and ignores other events and deletions', async () => {
    const { options, triggered, listed } = setup();
    expect(await handleDelivery(await signed(pingPayload(), 'ping'), options)).toMatchObject({
      outcome: 'pong',
      hookId: 109948940,
    });
    expect(await handleDelivery(await signed({ action: 'opened' }, 'issues'), options)).toMatchObject({
      outcome: 'ignored',
      reason: 'event issues is not a push',
    });
    expect(await handleDelivery(await signed(pushPayload('tag-deleted')), options)).toMatchObject({
      outcome: 'ignored',
      reason: 'refs/tags/simple-tag was deleted',
    });
    expect(triggered).toEqual([]);
    expect(listed()).toBe(0);
  });

  it('reports the tracks whose reconcile could not be started', async () => {
    const { options } = setup({
      trigger: async () => {
        throw new Error('throttled');
      },
    });
    const result = await handleDelivery(await signed(pushPayload('branch-created')), options);
    expect(result).toMatchObject({ outcome: 'triggered', failed: [{ track: tracks[0]!.ref }] });
  });

  it('verifies the bytes as delivered, not the JSON they parse to', async () => {
    const { options, triggered } = setup();
    // Indentation, CRLF, an escaped and a raw non-ASCII character: JSON.stringify(JSON.parse(raw)) differs.
    const payload = pushPayload('branch-created');
    payload.head_commit!.message = 'café — déjà';
    const pretty = JSON.stringify(payload, null, 2).replace(/\n/g, '\r\n');
    const raw = `${pretty.replace('"café', '"caf\\u00e9')}\r\n`;
    expect(raw).toContain('caf\\u00e9 — déjà');
    const headers = await deliveryHeaders(raw, secret, 'push', 'd-raw');
    expect(await handleDelivery({ headers, body: raw }, options)).toMatchObject({ outcome: 'triggered' });
    const base64 = Buffer.from(raw, 'utf8').toString('base64');
    expect(await handleDelivery({ headers, body: base64, isBase64Encoded: true }, options)).toMatchObject({
      outcome: 'triggered',
    });
    const reserialized = JSON.stringify(JSON.parse(raw));
    expect(await handleDelivery({ headers, body: reserialized }, options)).toMatchObject({
      outcome: 'unauthorized',
      reason: 'signature mismatch',
    });
    expect(triggered).toHaveLength(2);
  });

  it('accepts the previous secret during a rotation, and nothing else', async () => {
    const { options, triggered } = setup({ secrets: ['next-secret', secret] });
    const body = JSON.stringify(pushPayload('branch-created'));
    for (const [signer, outcome] of [
      ['next-secret', 'triggered'],
      [secret, 'triggered'],
      ['retired-secret', 'unauthorized'],
    ] as const) {
      const headers = await deliveryHeaders(body, signer);
      expect((await handleDelivery({ headers, body }, options)).outcome, signer).toBe(outcome);
    }
    expect(triggered).toHaveLength(2);
    // Once the rotation ends, the previous secret no longer verifies.
    const after = setup({ secrets: ['next-secret'] });
    const headers = await deliveryHeaders(body, secret);
    expect(await handleDelivery({ headers, body }, after.options)).toMatchObject({ outcome: 'unauthorized' });
  });

  it('refuses a correct SHA-1 signature, alone or beside a wrong SHA-256 one', async () => {
    const { options, listed } = setup();
    const body = JSON.stringify(pushPayload('branch-created'));
    const { 'x-hub-signature-256': _, ...headers } = await deliveryHeaders(body, secret);
    const sha1 = `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
    expect(await handleDelivery({ headers: { ...headers, 'X-Hub-Signature': sha1 }, body }, options)).toEqual(
      {
        outcome: 'unauthorized',
        reason: 'signature sha1-only',
      },
    );
    const forged = { ...headers, 'x-hub-signature': sha1, 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` };
    expect(await handleDelivery({ headers: forged, body }, options)).toEqual({
      outcome: 'unauthorized',
      reason: 'signature mismatch',
    });
    expect(listed()).toBe(0);
  });
});
