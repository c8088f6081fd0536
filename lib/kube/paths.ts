/** Splits an apiVersion into group ('' for core) and version. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export interface ResourcePath {
  apiVersion: string;
  plural: string;
  namespace?: string | undefined;
  name?: string | undefined;
  subresource?: string | undefined;
}

/** `/api/v1/namespaces/ns/configmaps/name` and friends. */
export function resourcePath(p: ResourcePath): string {
  const { group, version } = splitApiVersion(p.apiVersion);
  let path = group ? `/apis/${group}/${version}` : `/api/${version}`;
  if (p.namespace) path += `/namespaces/${encodeURIComponent(p.namespace)}`;
  path += `/${p.plural}`;
  if (p.name) path += `/${encodeURIComponent(p.name)}`;
  if (p.subresource) path += `/${p.subresource}`;
  return path;
}
