import { InvokeError } from '../errors';

const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** The connection error code somewhere in `e`'s causes (ECONNREFUSED…), if it is one. */
export function connectionFailure(e: unknown): string | undefined {
  let cause: unknown = e;
  for (let depth = 0; cause instanceof Error && depth < 6; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && connectionCodes.has(code)) return code;
    const errors = (cause as { errors?: unknown }).errors;
    if (Array.isArray(errors))
      for (const inner of errors) if (connectionFailure(inner)) return connectionFailure(inner);
    cause = cause.cause;
  }
  return undefined;
}

/**
 * An endpoint that does not answer (nothing listens, or it is unreachable) said as that, with the
 * URL and what usually runs there, instead of "fetch failed" or the AWS settings; other errors as they are.
 */
export function deadEndpoint(e: unknown, url: string, what: string): unknown {
  const code = connectionFailure(e);
  if (!code) return e;
  return new InvokeError(`nothing answers at ${url} (${code}): the ${what} is not running there`, {
    subject: url,
    cause: e,
    hint: 'is `npm start` running? It prints the webhook URL and the Lambda endpoint, and `push` and `replay` find it by themselves',
  });
}
