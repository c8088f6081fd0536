import type { KubeClient } from '../lib/kube/kubeClient';

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

/** Wraps `client.exchange` (every request goes through it) so each is counted, then passed on unchanged. */
export function countRequests(client: KubeClient): RequestCounts {
  const counts: RequestCounts = {};
  const original = client.exchange.bind(client);
  client.exchange = ((method, path, options) => {
    const key = category(method, path, options);
    counts[key] = (counts[key] ?? 0) + 1;
    return original(method, path, options);
  }) as KubeClient['exchange'];
  return counts;
}
