// isomorphic-git's Node transport with a deadline, a minimum rate and a size cap on every request:
// a git server that answers slowly, trickles, or sends without end fails the transfer with a
// GitLimitError instead of holding the run (a Lambda until its 15 minutes, the CLI forever).
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import nodeHttp from 'isomorphic-git/http/node';
import { GitLimitError } from '../errors';
import { GIT_LIMIT_SETTINGS, type GitLimits, overLimit } from './gitLimits';

export interface GitTransfer {
  /** When every request of the transfer must have ended (epoch ms). */
  deadline: number;
  /** What the deadline allows in all, for the message. */
  allowedMs: number;
  limits: GitLimits;
  /** The server, as named in errors (no credentials). */
  subject: string;
  /**
   * The first limit a request of the transfer went over. isomorphic-git reads some answers in
   * code that turns any error into its own (`EmptyServerResponseError`): callers look here first.
   */
  failure?: GitLimitError;
}

/** The transfer's deadline: `timeoutMs` from now, or the run's own deadline when that is sooner. */
export function startTransfer(limits: GitLimits, subject: string, runDeadline?: number): GitTransfer {
  const now = Date.now();
  const deadline = Math.min(now + limits.timeoutMs, runDeadline ?? Number.POSITIVE_INFINITY);
  return { deadline, allowedMs: Math.max(0, deadline - now), limits, subject };
}

/** An isomorphic-git HttpClient whose every request is bounded by `transfer`. */
export function boundedHttp(transfer: GitTransfer, inner: HttpClient = nodeHttp): HttpClient {
  return { request: (request) => boundedRequest(request, transfer, inner) };
}

async function boundedRequest(
  request: GitHttpRequest,
  transfer: GitTransfer,
  inner: HttpClient,
): Promise<GitHttpResponse> {
  const { limits, subject } = transfer;
  const controller = new AbortController();
  let failure: GitLimitError | undefined;
  let reject: (error: GitLimitError) => void = () => {};
  const failed = new Promise<never>((_, r) => {
    reject = r;
  });
  failed.catch(() => {});
  let body: AsyncIterator<Uint8Array> | undefined;
  const timers: NodeJS.Timeout[] = [];
  const stop = () => {
    for (const timer of timers) clearTimeout(timer);
  };
  const fail = (error: GitLimitError) => {
    if (failure) return;
    failure = error;
    transfer.failure ??= error;
    stop();
    controller.abort(error);
    body?.return?.();
    reject(error);
  };

  const remaining = transfer.deadline - Date.now();
  if (remaining <= 0) throw timedOut(transfer);
  timers.push(setTimeout(() => fail(timedOut(transfer)), remaining).unref());
  let received = 0;
  if (limits.lowSpeedBytesPerSecond > 0 && limits.lowSpeedTimeMs > 0) {
    const least = (limits.lowSpeedBytesPerSecond * limits.lowSpeedTimeMs) / 1000;
    let before = 0;
    timers.push(
      setInterval(() => {
        if (received - before < least) fail(tooSlow(transfer, received - before));
        before = received;
      }, limits.lowSpeedTimeMs).unref(),
    );
  }

  let response: GitHttpResponse;
  try {
    response = await Promise.race([inner.request({ ...request, signal: controller.signal }), failed]);
  } catch (error) {
    stop();
    throw failure ?? error;
  }
  const announced = Number(response.headers?.['content-length']);
  if (Number.isFinite(announced) && announced > limits.maxResponseBytes) {
    fail(
      overLimit(
        'maxResponseBytes',
        `${subject} announced a git response of ${announced} bytes`,
        limits.maxResponseBytes,
        subject,
      ),
    );
    throw failure;
  }
  if (response.body === undefined) {
    stop();
    return response;
  }
  const source = response.body;
  body = source[Symbol.asyncIterator]();
  const iterator: AsyncIterableIterator<Uint8Array> = {
    next: async () => {
      if (failure) throw failure;
      const step = await Promise.race([(body as AsyncIterator<Uint8Array>).next(), failed]);
      if (step.done) {
        stop();
        return step;
      }
      received += step.value.byteLength;
      if (received > limits.maxResponseBytes) {
        fail(
          overLimit(
            'maxResponseBytes',
            `${subject} sent a git response of ${received} bytes and more`,
            limits.maxResponseBytes,
            subject,
          ),
        );
        throw failure;
      }
      return step;
    },
    return: async () => {
      stop();
      await body?.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return { ...response, body: iterator };
}

function timedOut(transfer: GitTransfer): GitLimitError {
  const setting = GIT_LIMIT_SETTINGS.timeoutMs;
  return new GitLimitError(
    'timeoutMs',
    setting,
    `${transfer.subject}: the git transfer did not finish within ${transfer.allowedMs} ms (${setting}, or the run's time budget)`,
    { subject: transfer.subject },
  );
}

function tooSlow(transfer: GitTransfer, bytes: number): GitLimitError {
  const { lowSpeedBytesPerSecond, lowSpeedTimeMs } = transfer.limits;
  return overLimit(
    'lowSpeedBytesPerSecond',
    `${transfer.subject} sent ${bytes} bytes in ${lowSpeedTimeMs} ms, below the minimum rate`,
    lowSpeedBytesPerSecond,
    transfer.subject,
  );
}
