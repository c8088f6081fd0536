import { GitFetchError, type GitLimitError, isGitLimitError } from '../errors';
import { redactUrl } from './redactUrl';

interface HttpErrorLike {
  code: 'HttpError';
  data: { statusCode: number };
}

function isHttpError(error: unknown): error is HttpErrorLike {
  return (error as { code?: unknown } | null)?.code === 'HttpError';
}

export function isAuthFailure(error: unknown): boolean {
  return isHttpError(error) && (error.data.statusCode === 401 || error.data.statusCode === 403);
}

/** Node's own errors (a refused connection, a reset, a DNS failure), which carry nothing a server sent. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

// Fixed wording for what isomorphic-git throws; its own messages quote what the server sent.
const DESCRIPTIONS: Record<string, string> = {
  SmartHttpError: 'the server did not answer with the git smart-HTTP protocol',
  EmptyServerResponseError: 'the server sent no git data',
  ParseError: 'the server sent a response that is not valid git protocol',
  InternalError: 'the server sent data that could not be read',
  RemoteCapabilityError: 'the server does not support shallow fetches',
};

// What isomorphic-git's Node transport throws in its own words, without a code.
const TRANSPORT_MESSAGES = ['too many redirects', 'Request timed out'];

/**
 * Wraps whatever a fetch threw in a GitFetchError about `url`, in our own words only: the HTTP
 * status, or the kind of failure, and the URL without credentials. Nothing the server sent (a
 * body, a status text, an `ERR` line) is quoted or kept as the cause, because a track's status and
 * Events are read by its tenant, who chooses the URL and could otherwise read internal services
 * through it.
 */
export function toGitFetchError(
  error: unknown,
  url: string,
  connection?: { overLimit(): GitLimitError | undefined },
): GitFetchError | GitLimitError {
  // A limit the transport enforced explains whatever isomorphic-git made of the cut-off answer.
  const over = connection?.overLimit();
  if (over) return over;
  if (error instanceof GitFetchError || isGitLimitError(error)) return error;
  const where = redactUrl(url);
  if (isHttpError(error)) {
    const status = error.data.statusCode;
    const what = isAuthFailure(error) ? 'authentication failed for' : 'could not fetch';
    return new GitFetchError(`${what} ${where} (HTTP ${status})`, { subject: where });
  }
  if (isSystemError(error)) {
    return new GitFetchError(`could not fetch ${where}: connection failed (${error.code ?? error.syscall})`, {
      subject: where,
      cause: error,
    });
  }
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : undefined;
  const described =
    typeof code === 'string' ? DESCRIPTIONS[code] : TRANSPORT_MESSAGES.find((known) => known === message);
  return new GitFetchError(`could not fetch ${where}: ${described ?? 'the transfer failed'}`, {
    subject: where,
  });
}
