import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { ControlPlane } from '../../lib/controlplane/controlPlane';
import type { KubeClient } from '../../lib/kube/kubeClient';
import { kubeClientFromFile } from '../../lib/kube/loadKubeConfig';

export const kubeconfig = () => inject('kubeconfig');

export const kubeClient = () => kubeClientFromFile(kubeconfig());

/** The local control plane, when the tests started one (restart tests need it). */
export function localControlPlane(): ControlPlane | undefined {
  const dir = inject('controlPlaneDir');
  return dir ? ControlPlane.attach(dir) : undefined;
}

export const uniqueName = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex')}`;

/** Creates a namespace with a unique name; tests never share one. */
export async function freshNamespace(client: KubeClient, prefix = 'test'): Promise<string> {
  const name = uniqueName(prefix);
  await client.request('POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
  });
  return name;
}

/** Polls until `check` returns true; fails with `what` after `timeoutMs`. */
export async function eventually(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
}
