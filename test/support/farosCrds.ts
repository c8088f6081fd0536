import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { waitForCrdsEstablished } from '../../lib/kube/crds';
import { Discovery } from '../../lib/kube/discovery';
import type { KubeClient } from '../../lib/kube/kubeClient';
import { serverSideApply } from '../../lib/kube/serverSideApply';
import { eventually } from './cluster';

// Faros' own CRDs, read from the shared background beside the repository (as the corpus is).
const dir = resolve(process.cwd(), '../shared/background/faros-crds');

type Schema = Record<string, unknown> & {
  properties?: Record<string, Schema>;
  items?: Schema;
  type?: string;
};

/** A v1beta1 schema made structural: a type at every level, unknown fields kept where it had no schema. */
function structural(schema: Schema): Schema {
  const out: Schema = { ...schema };
  if (out.properties) {
    out.type ??= 'object';
    out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, structural(v)]));
  } else if (out.type === 'object' || out.type === undefined) {
    if (!out.items) {
      out.type = 'object';
      out['x-kubernetes-preserve-unknown-fields'] = true;
    }
  }
  if (out.items) out.items = structural(out.items);
  return out;
}

// `metadata` may only be declared as a plain object: the server owns its schema.
const withMetadata = (schema: Schema): Schema => ({
  ...schema,
  properties: { ...schema.properties, metadata: { type: 'object' } },
});

interface V1beta1Crd {
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    group: string;
    names: Record<string, string>;
    scope: string;
    version: string;
    validation: { openAPIV3Schema: Schema };
    additionalPrinterColumns?: Array<{ JSONPath: string; name: string; type: string; priority?: number }>;
  };
}

/** Faros' v1beta1 CRD as apiextensions.k8s.io/v1: same group, kinds, scope and printer columns. */
export function toV1(crd: V1beta1Crd) {
  const { group, names, scope, version, validation, additionalPrinterColumns } = crd.spec;
  const { metadata: _m, ...properties } = validation.openAPIV3Schema.properties ?? {};
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crd.metadata.name, labels: crd.metadata.labels },
    spec: {
      group,
      names,
      scope,
      versions: [
        {
          name: version,
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: withMetadata(
              structural({ ...validation.openAPIV3Schema, type: 'object', properties }),
            ),
          },
          additionalPrinterColumns: (additionalPrinterColumns ?? []).map(({ JSONPath, ...c }) => ({
            ...c,
            jsonPath: JSONPath,
          })),
        },
      ],
    },
  };
}

const crdApi = { apiVersion: 'apiextensions.k8s.io/v1', plural: 'customresourcedefinitions' };

export const farosCrdNames = () =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => (parse(readFileSync(join(dir, f), 'utf8')) as V1beta1Crd).metadata.name);

/** Installs Faros' four CRDs, converted, and waits until they are served. */
export async function installFarosCrds(client: KubeClient): Promise<string[]> {
  const crds = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => toV1(parse(readFileSync(join(dir, f), 'utf8')) as V1beta1Crd));
  await Promise.all(crds.map((crd) => serverSideApply(client, { ...crdApi, name: crd.metadata.name }, crd)));
  const names = crds.map((c) => c.metadata.name);
  await waitForCrdsEstablished(client, names);
  // Established is not yet served by aggregated discovery (what `migrate faros` reads), least of
  // all right after an earlier test deleted the same CRDs: wait until discovery lists every kind.
  await eventually('aggregated discovery serves the Faros kinds', async () => {
    const discovery = await new Discovery(client).refresh();
    return crds.every(
      (c) =>
        discovery.resourceFor(`${c.spec.group}/${c.spec.versions[0]?.name}`, c.spec.names.kind ?? '') !==
        undefined,
    );
  });
  return names;
}

/** Deletes Faros' CRDs (and so every Faros object) and waits until the server no longer serves them. */
export async function removeFarosCrds(client: KubeClient): Promise<void> {
  const names = farosCrdNames();
  await Promise.all(
    names.map((n) =>
      client
        .find(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${n}`)
        .then(
          (crd) =>
            crd && client.request('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${n}`),
        ),
    ),
  );
  await eventually(
    'the Faros CRDs are deleted and no longer served',
    async () => {
      const left = await Promise.all(
        names.map((n) => client.find(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${n}`)),
      );
      const groups = await client.get<{ groups?: Array<{ name: string }> }>('/apis');
      return left.every((c) => !c) && !groups.groups?.some((g) => g.name === 'faros.pusher.com');
    },
    60_000,
  );
}
