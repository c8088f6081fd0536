import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeConfig } from '@kubernetes/client-node';
import { Agent, request } from 'undici';
import { ApiUnreachableError, ConfigError, KubeApiError } from '../errors';
import { jsonText } from '../manifests/jsonText';
import { defaultConcurrency } from '../settings/defaults';
import { answerError } from './answerError';
import { type KubeCredentials, kubeConfigCredentials, type TlsOptions } from './kubeConfigCredentials';
import {
  defaultRequestPolicy,
  type Method,
  type RequestFailure,
  type RequestPolicy,
  retryDelay,
} from './requestPolicy';
import { tlsConnectOptions } from './tlsConnect';
import { type TransportFailure, transportFailure } from './transportFailure';

export interface KubeRequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON as-is: bodies are raw objects, never typed models (which drop unknown fields). */
  body?: unknown;
  contentType?: string;
  accept?: string;
  /** Names the object in errors, e.g. `Deployment.apps/shop/web`. */
  subject?: string;
}

/** Counts what a client sent (writes: not GET, dry-runs apart); a no-op sends zero writes, zero dry-runs. */
export interface RequestStats {
  reads: number;
  writes: number;
  dryRuns: number;
  /** Requests that failed for the cluster's reasons: unreachable, or 5xx/429 past the retries. */
  failures: number;
}

/** Asked before every request for the bearer token to send (e.g. an EKS token renewed before it expires). */
export type BearerTokenSource = () => Promise<string>;

export interface KubeClientOptions {
  /** Connections to the API server (default `defaultConcurrency`, 16). */
  connections?: number;
  /** Deadlines and retries (default: `defaultRequestPolicy`; the loaders in lib/config read the overrides). */
  policy?: RequestPolicy;
}

/** A transport failure on its way out of `send`, before `exchange` decides to retry or give up. */
class TransportAttemptError extends Error {
  constructor(
    readonly failure: TransportFailure,
    readonly original: unknown,
  ) {
    super(failure.detail);
  }
}

/**
 * A small JSON client for the Kubernetes API over one keep-alive connection pool.
 * Credentials come from a kubeconfig through @kubernetes/client-node; requests and
 * bodies are plain JSON so every field reaches the server unchanged. Every request has a
 * deadline; what fails below HTTP becomes one ApiUnreachableError naming the server.
 */
export class KubeClient {
  readonly stats: RequestStats = { reads: 0, writes: 0, dryRuns: 0, failures: 0 };

  private constructor(
    readonly server: string,
    readonly policy: RequestPolicy,
    private readonly dispatcher: Agent,
    private readonly headers: Record<string, string>,
    stats?: RequestStats,
    private readonly bearer?: BearerTokenSource,
  ) {
    if (stats) this.stats = stats;
  }

  /** Who this client acts as: the impersonated user, or `reconciler` for the client's own identity. */
  get actingAs(): string {
    return this.headers['impersonate-user'] ?? 'reconciler';
  }
  /** The same connection pool and counters, acting as `user` (e.g. a GitTrack's service account). */
  impersonating(user: string): KubeClient {
    return new KubeClient(
      this.server,
      this.policy,
      this.dispatcher,
      { ...this.headers, 'impersonate-user': user },
      this.stats,
      this.bearer,
    );
  }

  /** The same connection pool and identity, with counters of its own (lease traffic is no object write). */
  countedApart(): KubeClient {
    return new KubeClient(this.server, this.policy, this.dispatcher, this.headers, undefined, this.bearer);
  }

  static async fromKubeConfig(kc: KubeConfig, options: KubeClientOptions = {}): Promise<KubeClient> {
    return KubeClient.fromCredentials(await kubeConfigCredentials(kc), options);
  }

  /** From a server and its credentials as resolved (lib/kube/staticKubeconfig.ts for the functions). */
  static fromCredentials(credentials: KubeCredentials, options: KubeClientOptions = {}): KubeClient {
    const { server, tls, headers } = credentials;
    return KubeClient.pooled(server, options.policy ?? defaultRequestPolicy, tls, options, headers);
  }

  /**
   * For a server whose credentials are a bearer token that changes (an EKS cluster's): the token is
   * asked of `bearer` before every request, so one client (and its warm connections) outlives
   * each token. `caData` is the base64 PEM of the cluster's CA, as a kubeconfig holds it.
   */
  static withBearerSource(
    server: string,
    caData: string,
    bearer: BearerTokenSource,
    options: KubeClientOptions = {},
  ): KubeClient {
    const policy = options.policy ?? defaultRequestPolicy;
    if (!server.startsWith('https:'))
      throw new ConfigError(`the API server ${server} is not https`, { subject: server });
    const tls = { ca: Buffer.from(caData, 'base64').toString(), rejectUnauthorized: true };
    return KubeClient.pooled(server, policy, tls, options, {}, bearer);
  }

  /** A client with a pool of its own: keep-alive connections under the policy's deadlines, over `tls`. */
  private static pooled(
    server: string,
    policy: RequestPolicy,
    tls: TlsOptions,
    options: KubeClientOptions,
    headers: Record<string, string>,
    bearer?: BearerTokenSource,
  ): KubeClient {
    const dispatcher = new Agent({
      connections: options.connections ?? defaultConcurrency,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: policy.responseTimeoutMs,
      bodyTimeout: policy.responseTimeoutMs,
      connect: { timeout: policy.connectTimeoutMs, ...tlsConnectOptions(tls) },
    });
    return new KubeClient(server.replace(/\/$/, ''), policy, dispatcher, headers, undefined, bearer);
  }

  /**
   * Sends one request, retried as `retryDelay` allows: 429 answers (API priority and fairness,
   * or a watch cache that is still initializing) after the server's Retry-After, as client-go
   * does; reads also on 5xx and transport failures, with backoff.
   */
  async request<T = unknown>(method: Method, path: string, options: KubeRequestOptions = {}): Promise<T> {
    return (await this.exchange<T>(method, path, options)).body;
  }

  /** Like `request`, with the HTTP status (201 tells a server-side apply created the object). */
  async exchange<T = unknown>(
    method: Method,
    path: string,
    options: KubeRequestOptions = {},
  ): Promise<{ status: number; body: T }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.send<T>(method, path, options);
      } catch (e) {
        const failure: RequestFailure | undefined =
          e instanceof TransportAttemptError
            ? e.failure
            : e instanceof KubeApiError
              ? { kind: 'status', status: e.status, retryAfterMs: e.retryAfterMs }
              : undefined;
        const delay = failure && retryDelay(method, failure, attempt, this.policy);
        if (delay !== undefined) {
          await sleep(delay);
          continue;
        }
        if (failure && (failure.kind === 'transport' || failure.status >= 500 || failure.status === 429))
          this.stats.failures++;
        if (!(e instanceof TransportAttemptError)) throw e;
        throw new ApiUnreachableError(
          this.server,
          {
            request: `${method} ${path}`,
            detail: e.failure.detail,
            sent: e.failure.sent,
            attempts: attempt,
            subject: options.subject,
          },
          { cause: e.original },
        );
      }
    }
  }

  private async send<T>(
    method: Method,
    path: string,
    options: KubeRequestOptions,
  ): Promise<{ status: number; body: T }> {
    const url = new URL(this.server + path);
    for (const [k, v] of Object.entries(options.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const authorization = this.bearer ? { authorization: `Bearer ${await this.bearer()}` } : {};
    this.stats[method === 'GET' ? 'reads' : options.query?.dryRun ? 'dryRuns' : 'writes']++;
    let res: Awaited<ReturnType<typeof request>>;
    let text: string;
    try {
      res = await request(url, {
        method,
        dispatcher: this.dispatcher,
        headers: {
          ...this.headers,
          ...authorization,
          accept: options.accept ?? 'application/json',
          ...(options.body === undefined
            ? {}
            : { 'content-type': options.contentType ?? 'application/json' }),
        },
        body: options.body === undefined ? undefined : jsonText(options.body),
      });
      text = await res.body.text();
    } catch (e) {
      throw new TransportAttemptError(transportFailure(e, this.policy), e);
    }
    if (res.statusCode >= 200 && res.statusCode < 300) {
      return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T };
    }
    const subject = options.subject ?? `${method} ${path}`;
    throw answerError(res.statusCode, text, res.headers['retry-after'], subject);
  }

  get<T = unknown>(path: string, options?: KubeRequestOptions) {
    return this.request<T>('GET', path, options);
  }

  /** GET that answers `undefined` for 404. */
  async find<T = unknown>(path: string, options?: KubeRequestOptions): Promise<T | undefined> {
    try {
      return await this.get<T>(path, options);
    } catch (e) {
      if (e instanceof KubeApiError && e.status === 404) return undefined;
      throw e;
    }
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}
