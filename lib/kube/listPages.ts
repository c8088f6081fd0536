import { KubeApiError } from '../errors';
import type { KubeClient, KubeRequestOptions } from './kubeClient';

interface ListPage<T> {
  items?: T[] | null;
  metadata?: { continue?: string };
}

/**
 * Every item of a LIST, read `pageSize` at a time (`limit` + `continue`, as client-go's pager),
 * each passed through `keep` as its page arrives: the caller holds what it keeps, and never more
 * than one page's body. An item `keep` answers `undefined` for is dropped. A continue token the
 * server expired (410) reads the list again from the start, whole, as client-go falls back to.
 */
export async function listPages<T, R>(
  client: KubeClient,
  path: string,
  options: KubeRequestOptions,
  keep: (item: T) => R | undefined,
  pageSize = client.policy.listPageSize,
): Promise<R[]> {
  const kept: R[] = [];
  let token: string | undefined;
  for (;;) {
    let page: ListPage<T>;
    try {
      page = await client.get<ListPage<T>>(path, {
        ...options,
        query: { ...options.query, limit: pageSize, continue: token },
      });
    } catch (e) {
      if (token === undefined || !(e instanceof KubeApiError) || e.status !== 410) throw e;
      kept.length = 0;
      const whole = await client.get<ListPage<T>>(path, options);
      return keptOf(whole.items, keep, kept);
    }
    keptOf(page.items, keep, kept);
    token = page.metadata?.continue || undefined;
    if (token === undefined) return kept;
  }
}

function keptOf<T, R>(items: T[] | null | undefined, keep: (item: T) => R | undefined, into: R[]): R[] {
  for (const item of items ?? []) {
    const k = keep(item);
    if (k !== undefined) into.push(k);
  }
  return into;
}
