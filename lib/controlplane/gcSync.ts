import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { WaitTimeoutError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';

/**
 * Waits until the garbage collector has synced and is collecting: a canary ConfigMap whose
 * only owner never existed must be deleted. Anything asserted about the collector before
 * this point would be asserted about a collector that is not looking yet.
 */
export async function waitForGarbageCollector(client: KubeClient, timeoutMs = 120_000): Promise<number> {
  const started = Date.now();
  const name = `lightkeeper-gc-canary-${randomUUID().slice(0, 8)}`;
  const path = '/api/v1/namespaces/default/configmaps';
  await client.request('POST', path, {
    body: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name,
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: `${name}-owner`, uid: randomUUID() }],
      },
    },
  });
  while (Date.now() - started < timeoutMs) {
    if (!(await client.find(`${path}/${name}`))) return Date.now() - started;
    await sleep(250);
  }
  await client.find(`${path}/${name}`).then((o) => o && client.request('DELETE', `${path}/${name}`));
  throw new WaitTimeoutError(`garbage collector did not collect canary ${name} within ${timeoutMs} ms`, {
    subject: 'garbage-collector',
  });
}
