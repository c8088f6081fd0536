// Every error lightkeeper raises. Each has a literal `code`, names what it concerns
// (a file, an object as kind/ns/name, a track) and keeps the underlying `cause`.
// Classify with the `is*` predicates, never by matching messages.

export type ErrorCode =
  | 'ConfigError'
  | 'ControlPlaneError'
  | 'GitFetchError'
  | 'GitLimitError'
  | 'ManifestError'
  | 'OwnershipError'
  | 'ApplyError'
  | 'ImmutableFieldError'
  | 'WaitTimeoutError'
  | 'PruneRefusedError'
  | 'TrackNotFoundError'
  | 'PayloadError'
  | 'InvokeError'
  | 'LeaseTimeoutError'
  | 'LeaseLostError'
  | 'KubeApiError'
  | 'ApiUnreachableError'
  | 'ClusterUnavailableError';

export class LightkeeperError extends Error {
  readonly code: ErrorCode;
  /** What the error concerns: a file path, `kind/ns/name`, or a track reference. */
  readonly subject: string | undefined;
  /** What to do about it, when the message alone does not say (printed by the CLI). */
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, options: ErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = code;
    this.code = code;
    this.subject = options.subject;
    this.hint = options.hint;
  }
}

export interface ErrorOptions {
  subject?: string;
  cause?: unknown;
  hint?: string;
}

const make = (code: ErrorCode) =>
  class extends LightkeeperError {
    constructor(message: string, options: ErrorOptions = {}) {
      super(code, message, options);
    }
  };

export class ConfigError extends make('ConfigError') {}
export class ControlPlaneError extends make('ControlPlaneError') {}
export class GitFetchError extends make('GitFetchError') {}
/**
 * A git transfer or read that went over one of the deployment's limits (lib/git/gitLimits.ts): a
 * deadline, the minimum transfer rate, or a size cap. Like a GitFetchError it fails the run before
 * anything is applied; unlike one it is the track's doing (its server or its commit), never the
 * function's, so it is not worth retrying at once.
 */
export class GitLimitError extends LightkeeperError {
  /** Which limit: see GitLimitName. */
  readonly limit: string;
  /** The environment variable that raises it. */
  readonly setting: string;

  constructor(limit: string, setting: string, message: string, options: ErrorOptions = {}) {
    super('GitLimitError', message, { ...options, hint: options.hint ?? `raise ${setting} to allow more` });
    this.limit = limit;
    this.setting = setting;
  }
}

export const isGitLimitError = (e: unknown): e is GitLimitError => e instanceof GitLimitError;
export class OwnershipError extends make('OwnershipError') {}
export class ApplyError extends make('ApplyError') {}
export class ImmutableFieldError extends make('ImmutableFieldError') {}
export class WaitTimeoutError extends make('WaitTimeoutError') {}
export class PruneRefusedError extends make('PruneRefusedError') {}
export class TrackNotFoundError extends make('TrackNotFoundError') {}
/** A webhook delivery or function event that is not what it claims to be. */
export class PayloadError extends make('PayloadError') {}
/** A Lambda invocation that could not be made, or whose function failed. */
export class InvokeError extends make('InvokeError') {}
/** A track's lease could not be acquired before the deadline. */
export class LeaseTimeoutError extends make('LeaseTimeoutError') {}
/** A track's lease was taken over, deleted or let expire: this run may no longer prune or report. */
export class LeaseLostError extends make('LeaseLostError') {}

/** A non-2xx answer of the Kubernetes API, with the Status reason when the server gave one. */
export class KubeApiError extends LightkeeperError {
  readonly status: number;
  readonly reason: string | undefined;
  /** Set when the server asked to retry (429): it has not acted on the request. */
  retryAfterMs: number | undefined;

  constructor(
    status: number,
    reason: string | undefined,
    message: string,
    options: { subject?: string } = {},
  ) {
    super('KubeApiError', message, options);
    this.status = status;
    this.reason = reason;
  }
}

export const isKubeApiError = (e: unknown): e is KubeApiError => e instanceof KubeApiError;

/**
 * No usable answer from the API server: no connection, no response before the deadline, the
 * connection lost mid-way, or TLS refused. `sent` says whether the server may have acted.
 */
export class ApiUnreachableError extends LightkeeperError {
  readonly server: string;
  /** `METHOD /path` of the request that failed. */
  readonly request: string;
  readonly sent: boolean;

  constructor(
    server: string,
    failure: { request: string; detail: string; sent: boolean; attempts?: number; subject?: string },
    options: { cause?: unknown } = {},
  ) {
    const tries = failure.attempts && failure.attempts > 1 ? `, ${failure.attempts} attempts` : '';
    super(
      'ApiUnreachableError',
      `cannot reach the Kubernetes API server at ${server}: ${failure.detail} (${failure.request}${tries})`,
      { subject: failure.subject ?? server, cause: options.cause },
    );
    this.server = server;
    this.request = failure.request;
    this.sent = failure.sent;
  }
}

export const isApiUnreachable = (e: unknown): e is ApiUnreachableError => e instanceof ApiUnreachableError;

/** A run that ended early because the cluster failed it (its status may still have been written). */
export class ClusterUnavailableError extends make('ClusterUnavailableError') {}

/**
 * The cluster, not the input, failed: unreachable, or a server error (5xx) or throttling (429)
 * that outlasted the retries. Worth retrying the whole run later; a bad manifest is not.
 */
export const isInfrastructureError = (e: unknown): boolean =>
  isApiUnreachable(e) ||
  e instanceof ClusterUnavailableError ||
  (isKubeApiError(e) && (e.status >= 500 || e.status === 429));
export const isNotFound = (e: unknown) => isKubeApiError(e) && e.status === 404;
export const isConflict = (e: unknown) => isKubeApiError(e) && e.status === 409;
export const isInvalid = (e: unknown) => isKubeApiError(e) && e.status === 422;

/** A manifest problem: always names the file, and the line and object when known. */
export class ManifestError extends LightkeeperError {
  readonly path: string;
  readonly line: number | undefined;
  readonly object: string | undefined;

  constructor(message: string, where: { path: string; line?: number; object?: string; cause?: unknown }) {
    const at = where.line === undefined ? where.path : `${where.path}:${where.line}`;
    super('ManifestError', `${at}${where.object ? ` (${where.object})` : ''}: ${message}`, {
      subject: where.path,
      cause: where.cause,
    });
    this.path = where.path;
    this.line = where.line;
    this.object = where.object;
  }
}

export const isLeaseLost = (e: unknown): e is LeaseLostError => e instanceof LeaseLostError;
/** The track's git server or repository failed the fetch (never the cluster): the track's failure. */
export const isGitFetchError = (e: unknown): e is GitFetchError => e instanceof GitFetchError;

export const isLightkeeperError = (e: unknown): e is LightkeeperError => e instanceof LightkeeperError;
export const hasCode = (e: unknown, code: ErrorCode): boolean => isLightkeeperError(e) && e.code === code;
