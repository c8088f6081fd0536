// isomorphic-git's Node transport with a deadline, a minimum rate and a size cap on every request:
// a git server that answers slowly, trickles, or sends without end fails the transfer with a
// GitLimitError instead of holding the run (a Lambda until its 15 minutes, the CLI forever).
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import nodeHttp from 'isomorphic-git/http/node';
import { GitLimitError } from '../errors';
import { GIT_LIMIT_SETTINGS, type GitLimits } from '../settings/sourceLimits';
import { overLimit } from './gitLimits';

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
  const watch = new TransferWatch(transfer);
  let response: GitHttpResponse;
  try {
    // `timeout: 0`: Node's global agent (Node 19 and later) would end a request after 5 s without
    // traffic, far inside the low-speed window; the watch bounds the request instead. A socket back
    // in the pool keeps the agent's idle timeout.
    const fetchOptions = { ...request.fetchOptions, timeout: 0 };
    response = await watch.wait(inner.request({ ...request, fetchOptions, signal: watch.signal }));
  } catch (error) {
    watch.stop();
    throw watch.failure ?? error;
  }
  const announced = Number(response.headers?.['content-length']);
  if (Number.isFinite(announced) && announced > limits.maxResponseBytes) {
    const what = `${subject} announced a git response of ${announced} bytes`;
    throw watch.fail(overLimit('maxResponseBytes', what, limits.maxResponseBytes, subject));
  }
  if (response.body === undefined) {
    watch.stop();
    return response;
  }
  const body = response.body[Symbol.asyncIterator]();
  watch.onFail(() => body.return?.());
  const iterator: AsyncIterableIterator<Uint8Array> = {
    next: async () => {
      const step = await watch.wait(body.next());
      if (step.done) watch.stop();
      else watch.count(step.value.byteLength);
      return step;
    },
    return: async () => {
      watch.stop();
      await body.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return { ...response, body: iterator };
}

/**
 * The limits of one request. Time counts only while the caller waits on the server (for the
 * answer, or for the next chunk of it): an answer the caller stopped reading fails nothing.
 */
class TransferWatch {
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;
  failure: GitLimitError | undefined;
  private readonly failed: Promise<never>;
  private reject: (error: GitLimitError) => void = () => {};
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly cleanups: Array<() => void> = [];
  private waiting = 0;
  private waitedInWindow = false;
  private received = 0;

  constructor(private readonly transfer: GitTransfer) {
    this.failed = new Promise<never>((_, reject) => {
      this.reject = reject;
    });
    this.failed.catch(() => {});
    const { lowSpeedBytesPerSecond, lowSpeedTimeMs } = transfer.limits;
    const remaining = transfer.deadline - Date.now();
    if (remaining > 0) {
      const expire = () => this.waiting > 0 && this.fail(timedOut(transfer));
      this.timers.push(setTimeout(expire, remaining).unref());
    }
    if (lowSpeedBytesPerSecond > 0 && lowSpeedTimeMs > 0) {
      const least = (lowSpeedBytesPerSecond * lowSpeedTimeMs) / 1000;
      let before = 0;
      const check = () => {
        const got = this.received - before;
        if ((this.waiting > 0 || this.waitedInWindow) && got < least) this.fail(tooSlow(transfer, got));
        before = this.received;
        this.waitedInWindow = this.waiting > 0;
      };
      this.timers.push(setInterval(check, lowSpeedTimeMs).unref());
    }
  }

  /** `work` (a request or a read of the answer), unless a limit ends it first. */
  async wait<T>(work: Promise<T>): Promise<T> {
    if (this.failure) throw this.failure;
    if (Date.now() >= this.transfer.deadline) throw this.fail(timedOut(this.transfer));
    this.waiting++;
    this.waitedInWindow = true;
    try {
      return await Promise.race([work, this.failed]);
    } finally {
      this.waiting--;
    }
  }

  /** Counts bytes received; throws past the response size. */
  count(bytes: number): void {
    this.received += bytes;
    const { maxResponseBytes } = this.transfer.limits;
    if (this.received <= maxResponseBytes) return;
    const { subject } = this.transfer;
    const what = `${subject} sent a git response of ${this.received} bytes and more`;
    throw this.fail(overLimit('maxResponseBytes', what, maxResponseBytes, subject));
  }

  onFail(cleanup: () => void): void {
    this.cleanups.push(cleanup);
  }

  /** Ends the request with `error` (the first one wins), and returns the error to throw. */
  fail(error: GitLimitError): GitLimitError {
    if (this.failure) return this.failure;
    this.failure = error;
    this.transfer.failure ??= error;
    this.stop();
    this.controller.abort(error);
    for (const cleanup of this.cleanups) cleanup();
    this.reject(error);
    return error;
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
  }
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
