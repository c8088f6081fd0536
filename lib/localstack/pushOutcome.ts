import type { PushResult } from './deliverPush';

/**
 * What a `lightkeeper push` achieved, judged from the webhook's answer:
 * - `triggered`: 202, at least one track's reconcile started;
 * - `skipped`: 202, every track following the repository left it alone for a reason it gives
 *   (suspended, pinned, another reference, no file under its subPath): the webhook did its job;
 * - `unmatched`: 202, but no track follows the repository: nothing will ever reconcile it;
 * - `refused`: 4xx, the webhook will never take this delivery (signature, size, payload);
 * - `failed`: the webhook function failed or could not start every reconcile.
 */
export type PushOutcome =
  | { kind: 'triggered' | 'skipped'; accepted: true; message: string }
  | { kind: 'unmatched' | 'refused' | 'failed'; accepted: false; message: string };

interface AnswerBody {
  triggered?: unknown;
  skipped?: unknown;
  failed?: unknown;
  error?: unknown;
  ignored?: unknown;
  errorMessage?: unknown;
  message?: unknown;
}

const hints: Record<number, string> = {
  401: ' (is --secret, or WEBHOOK_SECRET, the secret the webhook was started with?)',
  413: ' (the webhook caps a delivery at WEBHOOK_MAX_BODY_BYTES)',
};

export function pushOutcome(result: PushResult, repoUrl: string): PushOutcome {
  const { commit, status } = result;
  const body = (typeof result.body === 'object' && result.body !== null ? result.body : {}) as AnswerBody;
  const names = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  const skips = Array.isArray(body.skipped)
    ? body.skipped.map((s: { track?: unknown; reason?: unknown }) => `${s.track} (${s.reason})`)
    : [];
  const pushed = `pushed ${commit}`;

  if (typeof body.errorMessage === 'string') {
    return failed(`${pushed}: the webhook function failed (${status}): ${body.errorMessage}`);
  }
  if (status === 202 && Array.isArray(body.triggered)) {
    const triggered = names(body.triggered);
    const skipped = skips.length > 0 ? `; skipped ${skips.join(', ')}` : '';
    if (triggered.length > 0) {
      return {
        kind: 'triggered',
        accepted: true,
        message: `${pushed}: triggered ${triggered.join(', ')}${skipped}`,
      };
    }
    if (skips.length > 0) {
      return {
        kind: 'skipped',
        accepted: true,
        message: `${pushed}: accepted, no track reconciles it: ${skips.join(', ')}`,
      };
    }
    return {
      kind: 'unmatched',
      accepted: false,
      message: `${pushed}: the webhook accepted it but no track follows ${repoUrl} (check --repo-url against the tracks' spec.repository)`,
    };
  }
  const reason =
    typeof body.error === 'string' ? body.error : typeof body.ignored === 'string' ? body.ignored : undefined;
  if (status >= 400 && status < 500) {
    return {
      kind: 'refused',
      accepted: false,
      message: `${pushed}: refused (${status}): ${reason ?? text(result.body)}${hints[status] ?? ''}`,
    };
  }
  if (status === 500 && Array.isArray(body.failed)) {
    const started = names(body.triggered);
    return failed(
      `${pushed}: failed (500): ${reason ?? 'some reconciles could not be started'}: ${names(body.failed).join(', ')}${started.length > 0 ? `; started ${started.join(', ')}` : ''}`,
    );
  }
  return failed(`${pushed}: unexpected answer (${status}): ${reason ?? text(result.body)}`);
}

const failed = (message: string): PushOutcome => ({ kind: 'failed', accepted: false, message });

/** The body as the webhook sent it, bounded: an error page can be long. */
function text(body: unknown): string {
  const s = typeof body === 'string' ? body : JSON.stringify(body);
  return s.length > 500 ? `${s.slice(0, 500)}…` : s || '(empty body)';
}
