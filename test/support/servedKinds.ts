import type { ApiResource } from '../../lib/kube/discovery';

/** Kinds an API server serves, by `apiVersion/Kind`, as a unit test's discovery sees them. */
export type ServedKinds = Record<string, ApiResource>;

/** ConfigMaps, Namespaces and CRDs, which every cluster serves; a test adds its own kinds. */
export const coreKinds: ServedKinds = {
  'v1/ConfigMap': { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true },
  'v1/Namespace': { group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false },
  'apiextensions.k8s.io/v1/CustomResourceDefinition': {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
  },
};

/** What planning asks discovery: where a kind is served. */
export const discoveryOf = (served: ServedKinds) => ({
  resourceFor: (apiVersion: string, kind: string) => served[`${apiVersion}/${kind}`],
});
