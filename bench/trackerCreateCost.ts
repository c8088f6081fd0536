// What one tracking-object create costs the API server, for the tracking-object CRD as crds/ has it
// and for variants of its status schema, measured alternately on one control plane (the API server
// slows as objects accumulate, so variants take turns and each reports its median). A create is
// what lightkeeper's first apply sends for every new object besides the child's apply.
// `npm run bench:tracker-cost [-- --objects N --rounds R]`.
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { ControlPlane } from '../lib/controlplane/controlPlane';
import { installLightkeeperCrds } from '../lib/kube/crds';
import { lightkeeperResources } from '../lib/kube/lightkeeperResources';
import { kubeClientFromFile } from '../lib/kube/loadKubeConfig';
import { resourcePath } from '../lib/kube/paths';
import { trackUidLabel } from '../lib/manifests/metadataKeys';
import { pidsOf, warmTrackerLists } from './benchEnv';
import { cpuBetween, sampleCpu } from './cpuTime';

type Schema = Record<string, unknown> & { properties: Record<string, Record<string, unknown>> };

/** Status schemas to compare, made from the one crds/ installs. */
const variants: Record<string, (status: Schema) => unknown> = {
  'crds/ (conditions an atomic list)': (status) => status,
  'conditions keyed by type (list-type map)': (status) => ({
    ...status,
    properties: {
      ...status.properties,
      conditions: {
        ...status.properties.conditions,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      },
    },
  }),
  'status unvalidated (preserve-unknown-fields)': () => ({
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  }),
};

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gittrackobjects.lightkeeper.dev';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** A tracking object as lightkeeper creates it: owner reference, label, spec and the apply's record. */
function trackerOf(i: number, namespace: string, owner: { uid: string }) {
  const commit = 'a'.repeat(40);
  const digest = `sha256:${'b'.repeat(64)}`;
  const now = new Date().toISOString();
  return {
    apiVersion: lightkeeperResources.GitTrackObject.apiVersion,
    kind: 'GitTrackObject',
    metadata: {
      name: `configmap-obj-${i}`,
      namespace,
      labels: { [trackUidLabel]: owner.uid },
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          name: 'owner',
          uid: owner.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      target: { apiVersion: 'v1', kind: 'ConfigMap', name: `obj-${i}` },
      source: { path: `${namespace}/obj-${i}.yaml`, commit },
      digest,
      updateStrategy: 'Update',
    },
    status: {
      lastAppliedDigest: digest,
      lastAppliedCommit: commit,
      conditions: [
        {
          type: 'InSync',
          status: 'True',
          reason: 'Applied',
          message: `applied at ${commit}`,
          lastTransitionTime: now,
        },
        {
          type: 'Healthy',
          status: 'True',
          reason: 'Exists',
          message: 'ConfigMap exists',
          lastTransitionTime: now,
        },
      ],
    },
  };
}

async function main() {
  const { values } = parseArgs({
    options: { objects: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '5' } },
  });
  const objects = Number(values.objects);
  const rounds = Number(values.rounds);
  const plane = await ControlPlane.start({ log: (l) => console.error(`[tracker-cost] control plane: ${l}`) });
  const client = await kubeClientFromFile(plane.kubeconfig, { connections: 32 });
  try {
    await installLightkeeperCrds(client);
    await warmTrackerLists(client);
    const crd = await client.get<{ spec: { versions: Array<{ schema: { openAPIV3Schema: Schema } }> } }>(
      crdPath,
    );
    const installed = structuredClone(
      crd.spec.versions[0]?.schema.openAPIV3Schema.properties.status,
    ) as Schema;
    const perObjectMs: Record<string, number[]> = Object.fromEntries(
      Object.keys(variants).map((k) => [k, []]),
    );
    let n = 0;
    for (let round = 0; round < rounds; round++) {
      for (const [name, schemaOf] of Object.entries(variants)) {
        const current = await client.get<typeof crd & Record<string, unknown>>(crdPath);
        (
          current.spec.versions[0] as { schema: { openAPIV3Schema: Schema } }
        ).schema.openAPIV3Schema.properties.status = schemaOf(installed) as Schema;
        await client.request('PUT', crdPath, { body: current });
        await sleep(3000); // the API server rebuilds the resource's handler and watch cache
        await warmTrackerLists(client);

        const namespace = `tracker-cost-${++n}`;
        await client.request('POST', '/api/v1/namespaces', {
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
        });
        const owner = await client.request<{ metadata: { uid: string } }>(
          'POST',
          `/api/v1/namespaces/${namespace}/configmaps`,
          { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } } },
        );
        await sleep(1000);
        const path = resourcePath({ ...lightkeeperResources.GitTrackObject, namespace });
        const limit = pLimit(32);
        const before = sampleCpu(pidsOf(plane));
        await Promise.all(
          Array.from({ length: objects }, (_, i) =>
            limit(() =>
              client.request('POST', path, {
                body: trackerOf(i, namespace, owner.metadata),
                query: { fieldManager: 'lightkeeper' },
              }),
            ),
          ),
        );
        const used = cpuBetween(before, sampleCpu(pidsOf(plane)));
        perObjectMs[name]?.push((used.apiserver ?? 0) / objects);
        console.error(
          `[tracker-cost] round ${round + 1}: ${name}: ${((used.apiserver ?? 0) / objects).toFixed(2)} ms`,
        );
      }
    }
    const reference = median(perObjectMs[Object.keys(variants)[0] as string] ?? []);
    console.log(`\nAPI server CPU per tracking-object create, median of ${rounds} rounds of ${objects}:`);
    for (const [name, ms] of Object.entries(perObjectMs)) {
      const m = median(ms);
      console.log(`  ${name.padEnd(48)} ${m.toFixed(2)} ms  (${((m / reference) * 100).toFixed(0)}%)`);
    }
  } finally {
    await client.close();
    await plane.stop();
  }
}

await main();
