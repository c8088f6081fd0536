import { isConflict } from '../errors';
import { valueAt, withoutPointers, withValueAt } from '../ignore/jsonPointer';
import { soleOwnedByUs } from '../ignore/managedFields';
import type { KubeClient } from '../kube/kubeClient';
import type { KubeObject } from '../manifests';
import type { PlannedObject } from '../plan/plannedObject';

/**
 * What to apply for a planned object with ignored fields, given the object as it exists.
 *
 * - Created (nothing there): the manifest as written, ignored fields included, as Argo CD does.
 * - Existing: the ignored fields are left out, so another manager (an HPA) may own them. But with
 *   server-side apply, a field an applier drops is REMOVED when no other manager owns it: a
 *   Deployment's replicas would fall back to 1. So each ignored field lightkeeper still owns alone
 *   is applied with its live value (Argo CD's RespectIgnoreDifferences), guarded by the object's
 *   resourceVersion so a write in between is not overwritten. Once another manager owns it,
 *   the next apply drops it and the server keeps it.
 */
async function manifestToApply(
  client: KubeClient,
  path: string,
  p: PlannedObject,
  ignore: readonly (readonly string[])[],
  existing: unknown,
  read?: Map<string, KubeObject | undefined>,
): Promise<{ object: KubeObject; locked: boolean }> {
  if (!existing) return { object: p.manifest.object, locked: false };
  const reference = p.manifest.object;
  const dropped = withoutPointers(reference, ignore);
  if (!ignore.some((t) => soleOwnedByUs(existing, t, reference))) return { object: dropped, locked: false };
  // A LIST item carries managed fields but no values: read the object itself.
  const full = read?.has(path) ? read.get(path) : await client.find<KubeObject>(path);
  read?.set(path, full);
  if (!full) return { object: reference, locked: false };
  let object = dropped;
  for (const tokens of ignore) {
    if (!soleOwnedByUs(full, tokens, reference)) continue;
    const value = valueAt(full, tokens);
    if (value !== undefined) object = withValueAt(object, tokens, value);
  }
  const { resourceVersion } = full.metadata;
  if (typeof resourceVersion !== 'string') return { object, locked: false };
  return { object: { ...object, metadata: { ...object.metadata, resourceVersion } }, locked: true };
}

/**
 * `send` for `p` as its ignored fields require: the manifest to apply is decided right before each
 * attempt, from `live` the first time and from a fresh read after that (a retry after another
 * writer moved the resourceVersion, or a recreate). Objects without ignored fields go as they are.
 */
export function ignoringApply<R>(
  client: KubeClient,
  path: string,
  p: PlannedObject,
  live: unknown,
  send: (planned: PlannedObject) => Promise<R>,
  /**
   * Objects read in full, by path: a first attempt takes what an earlier one (the dry-run) read, its
   * resourceVersion still the guard; a retry reads afresh.
   */
  read?: Map<string, KubeObject | undefined>,
): () => Promise<R> {
  const ignore = p.ignore ?? [];
  if (ignore.length === 0) return () => send(p);
  let known = live;
  return async () => {
    for (let attempt = 1; ; attempt++) {
      const existing = known ?? (await client.find(path));
      known = undefined;
      const { object, locked } = await manifestToApply(
        client,
        path,
        p,
        ignore,
        existing,
        attempt === 1 ? read : undefined,
      );
      try {
        return await send({ ...p, manifest: { ...p.manifest, object } });
      } catch (e) {
        if (!locked || !isConflict(e) || attempt >= 3) throw e;
      }
    }
  };
}
