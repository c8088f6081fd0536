import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { lightkeeperCrdDir, waitForCrdsEstablished } from '../kube/crds';
import type { KubeClient } from '../kube/kubeClient';
import type { StartLedger } from './startLedger';

const crdCollection = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/**
 * lightkeeper's CRDs for `lightkeeper start`: those missing are created (and the run removes them
 * again when nothing of theirs remains); those installed already are used as they are, never changed.
 */
export async function ensureStartCrds(
  client: KubeClient,
  ledger: StartLedger,
): Promise<{ created: string[]; existing: string[] }> {
  const crds = readdirSync(lightkeeperCrdDir)
    .filter((f) => f.endsWith('.yaml'))
    .map(
      (f) =>
        parse(readFileSync(join(lightkeeperCrdDir, f), 'utf8')) as {
          kind: string;
          metadata: { name: string };
        },
    );
  const created: string[] = [];
  const existing: string[] = [];
  for (const crd of crds) {
    if (await client.find(`${crdCollection}/${crd.metadata.name}`)) {
      existing.push(crd.metadata.name);
    } else {
      await ledger.create(client, crdCollection, crd);
      created.push(crd.metadata.name);
    }
  }
  await waitForCrdsEstablished(
    client,
    crds.map((c) => c.metadata.name),
  );
  return { created, existing };
}
