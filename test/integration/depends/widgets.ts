import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { uniqueName } from '../../support/cluster';
import { yamlOf } from '../../support/engine';
import { grant } from '../../support/tenancy';

// A CRD of a group of its own (so tests never share one) and a custom resource of it: what a CRD
// track installs and an app track uses.

export interface Widgets {
  group: string;
  crdName: string;
  crdYaml: string;
  widgetYaml: (name: string, namespace: string, size: number) => string;
  widget: (name: string, namespace: string) => Promise<{ spec?: { size?: number } } | undefined>;
  /** A second CRD of the same group, `Gadget`, and a gadget: what a later push adds. */
  gadgetCrdYaml: string;
  gadgetYaml: (name: string, namespace: string) => string;
  gadget: (name: string, namespace: string) => Promise<unknown>;
  /** Lets a GitTrack's default service account in `namespace` manage widgets and gadgets. */
  allow: (namespace: string) => Promise<void>;
  remove: () => Promise<void>;
}

export function widgets(client: KubeClient): Widgets {
  const group = `${uniqueName('w')}.lightkeeper-test.dev`;
  const crdName = `widgets.${group}`;
  const crdOf = (plural: string, kind: string) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
            },
          },
        },
      ],
    },
  });
  return {
    group,
    crdName,
    crdYaml: yamlOf(crdOf('widgets', 'Widget')),
    gadgetCrdYaml: yamlOf(crdOf('gadgets', 'Gadget')),
    gadgetYaml: (name, namespace) =>
      yamlOf({ apiVersion: `${group}/v1`, kind: 'Gadget', metadata: { name, namespace }, spec: { size: 1 } }),
    gadget: (name, namespace) =>
      client.find(resourcePath({ apiVersion: `${group}/v1`, plural: 'gadgets', namespace, name })),
    widgetYaml: (name, namespace, size) =>
      yamlOf({ apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name, namespace }, spec: { size } }),
    widget: (name, namespace) =>
      client.find(resourcePath({ apiVersion: `${group}/v1`, plural: 'widgets', namespace, name })),
    allow: async (namespace) => {
      const role = uniqueName('widgets');
      await client.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`, {
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'Role',
          metadata: { name: role },
          rules: [{ apiGroups: [group], resources: ['widgets', 'gadgets'], verbs: ['*'] }],
        },
      });
      await grant(client, namespace, { role });
    },
    remove: async () => {
      for (const name of [crdName, `gadgets.${group}`])
        await client
          .request('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`)
          .catch(() => {});
    },
  };
}
