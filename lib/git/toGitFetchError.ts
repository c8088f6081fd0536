import { GitFetchError } from '../errors';
import { redactUrl } from './redactUrl';

interface HttpErrorLike {
  code: 'HttpError';
  data: { statusCode: number; statusMessage: string };
}

function isHttpError(error: unknown): error is HttpErrorLike {
  return (error as { code?: unknown } | null)?.code === 'HttpError';
}

export function isAuthFailure(error: unknown): boolean {
  return isHttpError(error) && (error.data.statusCode === 401 || error.data.statusCode === 403);
}

/**
 * Wraps whatever a fetch threw in a GitFetchError about `url`. `secrets` (tokens, passwords) are
 * scrubbed from the message; they never appear in our own wording.
 */
export function toGitFetchError(error: unknown, url: string, secrets: string[]): GitFetchError {
  if (error instanceof GitFetchError) return error;
  const where = redactUrl(url);
  if (isAuthFailure(error)) {
    const { statusCode } = (error as HttpErrorLike).data;
    return new GitFetchError(`authentication failed for ${where} (HTTP ${statusCode})`, {
      subject: where,
      cause: error,
    });
  }
  let detail = error instanceof Error ? error.message : String(error);
  for (const secret of secrets) if (secret !== '') detail = detail.replaceAll(secret, '***');
  detail = detail.replaceAll(url, where);
  return new GitFetchError(`could not fetch ${where}: ${detail}`, { subject: where, cause: error });
}
