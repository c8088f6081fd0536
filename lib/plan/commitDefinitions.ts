import { isJsonObject, type Manifest } from '../manifests';

/** Where a kind a CRD defines is served: its plural, and whether it is namespaced. */
export interface ResourceInfo {
  plural: string;
  namespaced: boolean;
}

/**
 * Kinds defined by CRDs in the same commit, keyed `group/version/Kind`, so their custom resources
 * can be placed before they are served.
 */
export function commitDefinitions(manifests: readonly Manifest[]): Map<string, ResourceInfo> {
  const kinds = new Map<string, ResourceInfo>();
  for (const m of manifests) {
    if (m.ref.group !== 'apiextensions.k8s.io' || m.ref.kind !== 'CustomResourceDefinition') continue;
    const spec = m.object.spec;
    if (!isJsonObject(spec) || !isJsonObject(spec.names) || !Array.isArray(spec.versions)) continue;
    const { group } = spec;
    const { kind, plural } = spec.names;
    if (typeof group !== 'string' || typeof kind !== 'string' || typeof plural !== 'string') continue;
    for (const v of spec.versions) {
      if (isJsonObject(v) && typeof v.name === 'string') {
        kinds.set(`${group}/${v.name}/${kind}`, { plural, namespaced: spec.scope === 'Namespaced' });
      }
    }
  }
  return kinds;
}
