import type { EmitterWebhookEvent } from '@octokit/webhooks';
import { PayloadError } from '../errors';
import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import type { DeploymentConfig } from '../settings/deploymentModes';
import type { ListedTrack } from '../track/listedTrack';
import type { TrackRef } from '../track/trackRef';
import { type BodyInput, decodeBody } from './decodeBody';
import { matchTracks, type SkippedTrack } from './matchTracks';
import { type PushEvent, parsePush } from './parsePush';
import { verifySignature } from './verifySignature';

export interface Delivery {
  headers: Record<string, string | undefined>;
  body: BodyInput;
  isBase64Encoded?: boolean | undefined;
}

export interface DeliveryOptions {
  /** Current secret first, then any still accepted during a rotation. Must not be empty. */
  secrets: readonly string[];
  /** Larger bodies are refused before anything reads them. Default 5 MiB. */
  maxBodyBytes?: number;
  config: DeploymentConfig;
  /** Lists the tracks; called only for a verified push. */
  listTracks: () => Promise<ListedTrack[]>;
  /** Starts one reconcile without waiting for it. */
  trigger: (event: ReconcileEvent) => Promise<void>;
}

interface Identified {
  event: string | undefined;
  delivery: string | undefined;
}

export type DeliveryResult =
  | { outcome: 'too-large'; reason: string }
  | { outcome: 'unauthorized'; reason: string }
  | ({ outcome: 'malformed'; reason: string } & Identified)
  | ({ outcome: 'pong'; hookId: number | undefined } & Identified)
  | ({ outcome: 'ignored'; reason: string } & Identified)
  | ({
      outcome: 'triggered';
      push: PushEvent;
      triggered: TrackRef[];
      skipped: SkippedTrack[];
      /** Tracks whose reconcile could not be started, with the error. */
      failed: Array<{ track: TrackRef; error: unknown }>;
    } & Identified);

export const defaultMaxBodyBytes = 5 * 1024 * 1024;

/**
 * One GitHub delivery, from raw bytes to triggered reconciles: size cap, signature over the raw
 * body, then parsing, then matching. Answers with data; the caller maps it to a response.
 */
export async function handleDelivery(delivery: Delivery, options: DeliveryOptions): Promise<DeliveryResult> {
  const header = headerReader(delivery.headers);
  const max = options.maxBodyBytes ?? defaultMaxBodyBytes;
  const body = decodeBody(delivery.body, delivery.isBase64Encoded === true, max);
  if (body.tooLarge) return { outcome: 'too-large', reason: `body of ${body.bytes} bytes exceeds ${max}` };

  const signature = await verifySignature({
    secrets: options.secrets,
    rawBody: body.text,
    signatureHeader: header('x-hub-signature-256'),
    sha1Header: header('x-hub-signature'),
  });
  if (signature !== 'valid') return { outcome: 'unauthorized', reason: `signature ${signature}` };

  const id: Identified = { event: header('x-github-event'), delivery: header('x-github-delivery') };
  let json: unknown;
  try {
    json = parseJson(body.text, header('content-type'));
  } catch (e) {
    return { outcome: 'malformed', reason: `body is not JSON: ${(e as Error).message}`, ...id };
  }
  if (id.event === 'ping') return { outcome: 'pong', hookId: pingHookId(json), ...id };
  if (id.event !== 'push')
    return { outcome: 'ignored', reason: `event ${id.event ?? '(none)'} is not a push`, ...id };

  let push: PushEvent;
  try {
    push = parsePush(json);
  } catch (e) {
    if (e instanceof PayloadError) return { outcome: 'malformed', reason: e.message, ...id };
    throw e;
  }
  if (push.deleted) return { outcome: 'ignored', reason: `${push.ref} was deleted`, ...id };

  const { triggered, skipped } = matchTracks(push, await options.listTracks(), options.config, id.delivery);
  const started = await Promise.allSettled(
    triggered.map((track) =>
      options.trigger({
        track,
        mode: 'apply',
        reason: `push ${id.delivery ?? '(no delivery id)'} ${push.after}`,
        push: { after: push.after, committedAt: push.headCommitTime, delivery: id.delivery },
      }),
    ),
  );
  const failed = started.flatMap((s, i) =>
    s.status === 'rejected' ? [{ track: triggered[i] as TrackRef, error: s.reason as unknown }] : [],
  );
  return { outcome: 'triggered', push, triggered, skipped, failed, ...id };
}

/** The hook a `ping` names, when its payload has the shape `@octokit/webhooks` gives it. */
function pingHookId(json: unknown): number | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const hookId = (json as EmitterWebhookEvent<'ping'>['payload']).hook_id;
  return typeof hookId === 'number' ? hookId : undefined;
}

function headerReader(headers: Record<string, string | undefined>): (name: string) => string | undefined {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return (name) => lower.get(name) || undefined;
}

/** GitHub sends `application/json`, or a form whose `payload` field holds the JSON. */
function parseJson(text: string, contentType: string | undefined): unknown {
  if (contentType?.startsWith('application/x-www-form-urlencoded')) {
    const payload = new URLSearchParams(text).get('payload');
    if (payload === null) throw new Error('form body without a payload field');
    return JSON.parse(payload);
  }
  return JSON.parse(text);
}
