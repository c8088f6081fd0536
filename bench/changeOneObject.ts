import { parse, stringify } from 'yaml';

export interface OneChange {
  /** The file to commit (one object per file: exactly one object changes). */
  files: Record<string, string>;
  namespace: string;
  name: string;
  /** `data.mode` after the change. */
  value: string;
}

/** The first ConfigMap of a file-per-object repository, with `data.mode` set to `value`. */
export function changeOneConfigMap(repo: Record<string, string>, value: string): OneChange {
  const path = Object.keys(repo)
    .sort()
    .find((p) => /\/configmap-[^/]+\.yaml$/.test(p));
  if (!path) throw new Error('the generated repository has no ConfigMap file');
  const object = parse(repo[path]!, { version: '1.1' }) as {
    metadata: { name: string; namespace: string };
    data: Record<string, string>;
  };
  object.data.mode = value;
  return {
    files: { [path]: stringify(object, { version: '1.1' }) },
    namespace: object.metadata.namespace,
    name: object.metadata.name,
    value,
  };
}
