import type { KubeObject } from './KubeObject';

export type ObjectRef = {
  apiVersion: string;
  /** '' for the core group. */
  group: string;
  version: string;
  kind: string;
  /** As written in the manifest; absent when not written (or written as ''). */
  namespace?: string;
  name: string;
};

type RefIdentity = Pick<ObjectRef, 'group' | 'kind' | 'namespace' | 'name'>;

/** `v1` → core group; `apps/v1` → group `apps`. Anything else is not an apiVersion. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } | undefined {
  const parts = apiVersion.split('/');
  if (parts.some((part) => part === '')) return undefined;
  if (parts.length === 1) return { group: '', version: parts[0]! };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

export function refOf(object: KubeObject): ObjectRef {
  const { apiVersion, kind, metadata } = object;
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  const ref: ObjectRef = { apiVersion, group, version, kind, name: metadata.name };
  if (typeof metadata.namespace === 'string' && metadata.namespace !== '') ref.namespace = metadata.namespace;
  return ref;
}

/** The one way objects are named in logs, errors and status: `Deployment.apps/shop/web`, `ConfigMap/cfg`. */
export function formatRef(ref: RefIdentity): string {
  const kind = ref.group === '' ? ref.kind : `${ref.kind}.${ref.group}`;
  return ref.namespace ? `${kind}/${ref.namespace}/${ref.name}` : `${kind}/${ref.name}`;
}

/** Unique per object across groups; the version is excluded because it is only a representation. */
export function identityKey(ref: RefIdentity): string {
  return `${ref.group}/${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}
