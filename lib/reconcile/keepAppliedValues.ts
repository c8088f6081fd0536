import { isKubeApiError } from '../errors';
import type { VaryingObject } from '../helm/runHelmRender';
import { parsePointer, valueAt, withValueAt } from '../ignore/jsonPointer';
import type { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import type { JsonValue, KubeObject, Manifest } from '../manifests';

/** Where a varying object is live: the track's identity reads it, discovery names its resource. */
export interface LiveReader {
  client: KubeClient;
  discovery: Pick<Discovery, 'resourceFor'>;
  /** The release's namespace: where a namespaced object naming none is. */
  namespace: string;
}

const sameObject = (m: Manifest, v: VaryingObject) =>
  m.object.apiVersion === v.apiVersion &&
  m.object.kind === v.kind &&
  m.object.metadata.name === v.name &&
  (m.object.metadata.namespace ?? '') === (v.namespace ?? '');

/** The live value at a pointer; a Secret's `stringData` is what the server keeps in `data`. */
function liveValue(live: KubeObject, tokens: string[]): JsonValue | undefined {
  if (live.kind === 'Secret' && tokens[0] === 'stringData' && tokens.length === 2) {
    const data = valueAt(live, ['data', tokens[1] as string]);
    return typeof data === 'string' ? Buffer.from(data, 'base64').toString('utf8') : undefined;
  }
  return valueAt(live, tokens) as JsonValue | undefined;
}

/**
 * The rendered objects with each field the two renders disagreed on set to its live value, where
 * the object is live and has one: a sweep of the commit the track applied then finds the object as
 * it was applied (in sync: no write), and a random password or certificate stays what it was.
 * A new commit is applied as rendered, as `helm upgrade` would (the caller decides).
 */
export async function keepAppliedValues(
  manifests: readonly Manifest[],
  varying: readonly VaryingObject[],
  reader: LiveReader,
): Promise<Manifest[]> {
  const out = [...manifests];
  for (const v of varying) {
    const at = out.findIndex((m) => sameObject(m, v));
    const manifest = out[at];
    if (!manifest || v.fields.length === 0) continue;
    const resource = reader.discovery.resourceFor(manifest.object.apiVersion, manifest.object.kind);
    if (!resource) continue;
    const namespace = resource.namespaced
      ? (manifest.object.metadata.namespace ?? reader.namespace)
      : undefined;
    const { apiVersion } = manifest.object;
    const path = resourcePath({ apiVersion, plural: resource.plural, namespace, name: v.name });
    // Not readable: applied as rendered, and the apply reports why.
    const live = await reader.client.find<KubeObject>(path).catch((e: unknown) => {
      if (isKubeApiError(e)) return undefined;
      throw e;
    });
    if (!live) continue;
    let object = manifest.object;
    for (const field of v.fields) {
      const pointer = parsePointer(field);
      if ('error' in pointer) continue;
      const value = liveValue(live, pointer.tokens);
      if (value !== undefined) object = withValueAt(object, pointer.tokens, value);
    }
    out[at] = { ...manifest, object };
  }
  return out;
}
