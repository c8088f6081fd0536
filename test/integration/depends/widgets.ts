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
  /** Lets a GitTrack's default service account in `namespace` manage widgets. */
  allow: (namespace: string) => Promise<void>;
  remove: () => Promise<void>;
}

export function widgets(client: KubeClient): Widgets {
  const group = `${uniqueName('w')}.lightkeeper-test.dev`;
  const crdName = `widgets.${group}`;
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
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
  };
  return {
    group,
    crdName,
    crdYaml: yamlOf(crd),
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
          rules: [{ apiGroups: [group], resources: ['widgets'], verbs: ['*'] }],
        },
      });
      await grant(client, namespace, { role });
    },
    remove: async () => {
      await client
        .request('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`)
        .catch(() => {});
    },
  };
}
