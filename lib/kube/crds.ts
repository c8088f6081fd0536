import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { WaitTimeoutError } from '../errors';
import type { KubeClient } from './kubeClient';
import { serverSideApply } from './serverSideApply';

export const lightkeeperCrdDir = fileURLToPath(new URL('../../crds', import.meta.url));

interface Crd {
  metadata: { name: string };
  status?: { conditions?: Array<{ type: string; status: string }> };
}

const crdApi = { apiVersion: 'apiextensions.k8s.io/v1', plural: 'customresourcedefinitions' };

/** Applies lightkeeper's four CRDs and waits until the server serves them. */
export async function installLightkeeperCrds(client: KubeClient, dir = lightkeeperCrdDir): Promise<string[]> {
  const crds = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => parse(readFileSync(join(dir, f), 'utf8')) as Crd);
  await Promise.all(crds.map((crd) => serverSideApply(client, { ...crdApi, name: crd.metadata.name }, crd)));
  const names = crds.map((c) => c.metadata.name);
  await waitForCrdsEstablished(client, names);
  return names;
}

export async function waitForCrdsEstablished(client: KubeClient, names: string[], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (const name of names) {
    for (;;) {
      const crd = await client.find<Crd>(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
      if (crd?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (Date.now() > deadline) {
        throw new WaitTimeoutError(`CustomResourceDefinition ${name} not Established after ${timeoutMs} ms`, {
          subject: `CustomResourceDefinition.apiextensions.k8s.io/${name}`,
        });
      }
      await sleep(100);
    }
  }
}
