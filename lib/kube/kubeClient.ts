import type { RequestOptions } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { KubeConfig } from '@kubernetes/client-node';
import { Agent, request } from 'undici';
import { ConfigError, KubeApiError } from '../errors';
import { jsonText } from '../manifests';

const maxAttempts = 20;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface KubeRequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON as-is: bodies are raw objects, never typed models (which drop unknown fields). */
  body?: unknown;
  contentType?: string;
  accept?: string;
  /** Names the object in errors, e.g. `Deployment.apps/shop/web`. */
  subject?: string;
}

/** Counts what a client sent: the no-op benchmark asserts zero writes. */
export interface RequestStats {
  reads: number;
  writes: number;
}

/**
 * A small JSON client for the Kubernetes API over one keep-alive connection pool.
 * Credentials come from a kubeconfig through @kubernetes/client-node; requests and
 * bodies are plain JSON so every field reaches the server unchanged.
 */
export class KubeClient {
  readonly stats: RequestStats = { reads: 0, writes: 0 };

  private constructor(
    readonly server: string,
    private readonly dispatcher: Agent,
    private readonly headers: Record<string, string>,
    stats?: RequestStats,
  ) {
    if (stats) this.stats = stats;
  }

  /** The same connection pool and counters, acting as `user` (e.g. a GitTrack's service account). */
  impersonating(user: string): KubeClient {
    return new KubeClient(
      this.server,
      this.dispatcher,
      { ...this.headers, 'impersonate-user': user },
      this.stats,
    );
  }

  static async fromKubeConfig(kc: KubeConfig, options: { connections?: number } = {}): Promise<KubeClient> {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new ConfigError('kubeconfig has no current cluster');
    const https: RequestOptions = {};
    await kc.applyToHTTPSOptions(https);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(https.headers ?? {})) if (typeof v === 'string') headers[k] = v;
    const dispatcher = new Agent({
      connections: options.connections ?? 16,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      connect: {
        ca: https.ca as string | undefined,
        cert: https.cert as string | undefined,
        key: https.key as string | undefined,
        rejectUnauthorized: https.rejectUnauthorized ?? true,
      },
    });
    return new KubeClient(cluster.server.replace(/\/$/, ''), dispatcher, headers);
  }

  /** From a kubeconfig file path, or from `KUBECONFIG` / the default locations. */
  static async fromFile(path?: string, options?: { connections?: number }): Promise<KubeClient> {
    const kc = new KubeConfig();
    if (path) kc.loadFromFile(path);
    else kc.loadFromDefault();
    return KubeClient.fromKubeConfig(kc, options);
  }

  /**
   * Sends one request. 429 answers (API priority and fairness, or a watch cache that is still
   * initializing) are retried after the server's Retry-After, as client-go does: the server has
   * not acted on them.
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
        if (!(e instanceof KubeApiError) || e.retryAfterMs === undefined || attempt >= maxAttempts) throw e;
        await sleep(e.retryAfterMs);
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
    if (method === 'GET') this.stats.reads++;
    else this.stats.writes++;
    const res = await request(url, {
      method,
      dispatcher: this.dispatcher,
      headers: {
        ...this.headers,
        accept: options.accept ?? 'application/json',
        ...(options.body === undefined ? {} : { 'content-type': options.contentType ?? 'application/json' }),
      },
      body: options.body === undefined ? undefined : jsonText(options.body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 200 && res.statusCode < 300) {
      return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T };
    }
    let reason: string | undefined;
    let message = text.slice(0, 2000);
    try {
      const status = JSON.parse(text) as { reason?: string; message?: string };
      reason = status.reason;
      message = status.message ?? message;
    } catch {}
    const subject = options.subject ?? `${method} ${path}`;
    const error = new KubeApiError(res.statusCode, reason, `${subject}: ${message}`, { subject });
    if (res.statusCode === 429) {
      const seconds = Number(res.headers['retry-after'] ?? 1);
      error.retryAfterMs = Math.min(Number.isFinite(seconds) ? seconds : 1, 2) * 1000;
    }
    throw error;
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
