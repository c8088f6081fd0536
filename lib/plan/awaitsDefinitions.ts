import { isJsonObject } from '../manifests';
import type { PlannedObject } from './plannedObject';

/**
 * What the definitions stage of a commit is about to create or change that other objects of the
 * same commit need first: namespaces that do not exist yet, and kinds (`group/Kind`) whose
 * CustomResourceDefinition the commit creates or changes.
 */
export interface PendingDefinitions {
  namespaces: ReadonlySet<string>;
  kinds: ReadonlySet<string>;
}

export const isNamespace = (p: PlannedObject) =>
  p.manifest.ref.group === '' && p.manifest.ref.kind === 'Namespace';

const isCrd = (p: PlannedObject) =>
  p.manifest.ref.group === 'apiextensions.k8s.io' && p.manifest.ref.kind === 'CustomResourceDefinition';

/** The kind a CustomResourceDefinition manifest defines, `group/Kind`; undefined for anything else. */
export function definedKind(p: PlannedObject): string | undefined {
  if (!isCrd(p)) return undefined;
  const spec = p.manifest.object.spec;
  if (!isJsonObject(spec) || !isJsonObject(spec.names)) return undefined;
  const { group } = spec;
  const { kind } = spec.names;
  return typeof group === 'string' && typeof kind === 'string' ? `${group}/${kind}` : undefined;
}

/**
 * The definitions `changed` (the commit's objects that will be written) creates or changes;
 * `existing` tells which of its namespaces are there already.
 */
export function pendingDefinitions(
  changed: readonly PlannedObject[],
  existing: (namespace: string) => boolean,
): PendingDefinitions {
  const namespaces = new Set<string>();
  const kinds = new Set<string>();
  for (const p of changed) {
    if (isNamespace(p) && !existing(p.manifest.ref.name)) namespaces.add(p.manifest.ref.name);
    const kind = definedKind(p);
    if (kind) kinds.add(kind);
  }
  return { namespaces, kinds };
}

/**
 * Whether `p` can only be sent (even as a dry-run) once the definitions stage is written: its
 * namespace is created by the commit, its kind is defined or changed by one of the commit's CRDs
 * (the schema it would be validated against is the new one), or its type is not served yet.
 * Definitions themselves never wait.
 */
export function awaitsDefinitions(p: PlannedObject, pending: PendingDefinitions, served: boolean): boolean {
  if (p.stage === 'definitions') return false;
  if (!served || pending.kinds.has(`${p.manifest.ref.group}/${p.manifest.ref.kind}`)) return true;
  const namespace = p.decision.namespace;
  return p.resource.namespaced && namespace !== undefined && pending.namespaces.has(namespace);
}
