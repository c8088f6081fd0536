import { InvokeError, isLightkeeperError } from '../errors';

const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** The connection error somewhere in `e`'s causes (its code ECONNREFUSED…), if there is one. */
export function connectionFailure(e: unknown): Error | undefined {
  let cause: unknown = e;
  for (let depth = 0; cause instanceof Error && depth < 6; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && connectionCodes.has(code)) return cause;
    const errors = (cause as { errors?: unknown }).errors;
    if (Array.isArray(errors))
      for (const inner of errors) {
        const found = connectionFailure(inner);
        if (found) return found;
      }
    cause = cause.cause;
  }
  return undefined;
}

/**
 * An endpoint that does not answer (nothing listens, or it is unreachable) said as that, with the
 * URL and what usually runs there, instead of "fetch failed" or the AWS settings; another failure
 * to reach it keeps its message, with the option to check.
 */
export function deadEndpoint(e: unknown, url: string, what: string, flag: string): unknown {
  const failure = connectionFailure(e);
  if (failure)
    return new InvokeError(
      `nothing answers at ${url} (${failure.message}): the ${what} is not running there`,
      {
        subject: url,
        cause: failure,
        hint: 'is `npm start` running? It prints the webhook URL and the Lambda endpoint, and `push` and `replay` find it by themselves',
      },
    );
  return isLightkeeperError(e) && e.code === 'InvokeError' && !e.hint
    ? new InvokeError(e.message, { subject: url, cause: e.cause, hint: `check ${flag} ${url}` })
    : e;
}
