import { splitApiVersion } from '../manifests';

export interface ResourcePath {
  apiVersion: string;
  plural: string;
  namespace?: string | undefined;
  name?: string | undefined;
  subresource?: string | undefined;
}

/** `/api/v1/namespaces/ns/configmaps/name` and friends. */
export function resourcePath(p: ResourcePath): string {
  const { group, version } = splitApiVersion(p.apiVersion) ?? { group: '', version: p.apiVersion };
  let path = group ? `/apis/${group}/${version}` : `/api/${version}`;
  if (p.namespace) path += `/namespaces/${encodeURIComponent(p.namespace)}`;
  path += `/${p.plural}`;
  if (p.name) path += `/${encodeURIComponent(p.name)}`;
  if (p.subresource) path += `/${p.subresource}`;
  return path;
}
