import { setTimeout as sleep } from 'node:timers/promises';
import type { OfflineStack } from './serverlessOffline';

/**
 * Waits (bounded) until the reconcile function has logged `count` reconciles since `offset` of the
 * stack's output. A track's status is written before its reconcile logs the result, so the tracks
 * read Ready a moment before their log lines arrive; what is printed after this follows them.
 */
export async function waitForReconcileLogs(
  offline: OfflineStack,
  offset: number,
  count: number,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<boolean> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (reconciledSince(offline.output(), offset) >= count) return true;
    if (Date.now() > deadline) return false;
    await sleep(50, undefined, { signal: options.signal });
  }
}

function reconciledSince(output: string, offset: number): number {
  let n = 0;
  for (const line of output.slice(offset).split('\n')) {
    if (!line.startsWith('{"level"')) continue;
    try {
      if ((JSON.parse(line) as { message?: unknown }).message === 'reconciled') n++;
    } catch {}
  }
  return n;
}
