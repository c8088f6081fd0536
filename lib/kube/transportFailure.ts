import type { RequestPolicy } from './requestPolicy';

/** What went wrong below HTTP, in words, and whether the server may have seen the request. */
export interface TransportFailure {
  kind: 'transport';
  /** False when the request never left: the connection was refused or never opened. */
  sent: boolean;
  /** Worth another attempt (a timeout, a refused or reset connection), unlike a TLS refusal. */
  transient: boolean;
  detail: string;
}

const seconds = (ms: number) => `${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1)} s`;

/** Classifies an error thrown by undici (or Node's sockets) for a request to the API server. */
export function transportFailure(e: unknown, policy: RequestPolicy): TransportFailure {
  const code = (e as { code?: unknown } | null)?.code;
  const message = e instanceof Error ? e.message : String(e);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return failure(false, true, `no connection within ${seconds(policy.connectTimeoutMs)}`);
    case 'ECONNREFUSED':
      return failure(false, true, 'connection refused');
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EAI_AGAIN':
      return failure(false, true, `${message}`);
    case 'ENOTFOUND':
      return failure(false, false, `host not found (${message})`);
    case 'UND_ERR_HEADERS_TIMEOUT':
      return failure(true, true, `no response within ${seconds(policy.responseTimeoutMs)}`);
    case 'UND_ERR_BODY_TIMEOUT':
      return failure(true, true, `response stalled for ${seconds(policy.responseTimeoutMs)}`);
    case 'UND_ERR_SOCKET':
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_CLOSED':
      return failure(true, true, `connection lost (${message})`);
    default:
      // TLS refusals (unknown CA, wrong host name) and anything unforeseen: another try will
      // not help, and we cannot know whether the server saw the request.
      return failure(true, false, message);
  }
}

const failure = (sent: boolean, transient: boolean, detail: string): TransportFailure => ({
  kind: 'transport',
  sent,
  transient,
  detail,
});
