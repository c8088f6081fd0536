import { subscribe } from 'node:diagnostics_channel';
import type { KubeClient } from '../lib/kube/kubeClient';

// Connections undici opened in this process (each a TCP connect and a TLS handshake).
let connectionsOpened = 0;
subscribe('undici:client:connected', () => {
  connectionsOpened++;
});

/** Request counts by what they do (`PATCH apply (child)`, `PATCH status`, `GET one`…), for profiling. */
export type RequestCounts = Record<string, number>;

function category(
  method: string,
  path: string,
  options: { contentType?: string; query?: Record<string, unknown> } = {},
) {
  const url = path.split('?')[0] ?? path;
  if (method === 'PATCH' && options.query?.dryRun) return 'PATCH dry-run (child)';
  if (method === 'PATCH' && url.endsWith('/status')) return 'PATCH status';
  // Tracking objects take their status in the object itself (crds/).
  if (
    method === 'PATCH' &&
    options.contentType === 'application/merge-patch+json' &&
    url.includes('/lightkeeper.dev/')
  )
    return 'PATCH status';
  if (method === 'PATCH' && options.contentType === 'application/apply-patch+yaml') {
    return url.includes('/lightkeeper.dev/') ? 'PATCH apply (tracker)' : 'PATCH apply (child)';
  }
  if (method === 'GET') {
    // /api/v1[/namespaces/ns]/plural is a collection; /apis has one more segment (the group).
    const segments = url.split('/').filter(Boolean).length - (url.startsWith('/apis') ? 1 : 0);
    return segments <= 2 || segments % 2 === 1 ? 'GET list/discovery' : 'GET one';
  }
  if (method === 'POST' && url.endsWith('/events')) return 'POST event';
  if (method === 'POST' && url.includes('/lightkeeper.dev/')) return 'POST create (tracker)';
  return `${method} other`;
}

/**
 * Wraps `client.exchange` (every request goes through it) so each is counted and its wall time
 * (retries included) summed by kind in `ms`, then passed on unchanged.
 */
export function countRequests(client: KubeClient): { counts: RequestCounts; ms: RequestCounts } {
  const counts: RequestCounts = {};
  const ms: RequestCounts = {};
  const connectionsBefore = connectionsOpened;
  Object.defineProperty(counts, 'connections opened', {
    enumerable: true,
    get: () => connectionsOpened - connectionsBefore,
  });
  const original = client.exchange.bind(client);
  client.exchange = ((method, path, options) => {
    const key = category(method, path, options);
    counts[key] = (counts[key] ?? 0) + 1;
    const started = performance.now();
    return original(method, path, options).finally(() => {
      ms[key] = (ms[key] ?? 0) + Math.round(performance.now() - started);
    });
  }) as KubeClient['exchange'];
  return { counts, ms };
}
