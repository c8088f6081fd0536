import { createHash } from 'node:crypto';
import { isKubeApiError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import type { ResolvedValuesReference } from './helmSpec';

/** One valuesFrom key's content, as the engine merges it (infra/kustomize/helmvalues.go). */
export interface ValuesContent {
  /** `Secret shop/db key values.yaml`: names it in messages, never its content. */
  source: string;
  secret: boolean;
  targetPath?: string;
  content: string;
}

/**
 * `read`: the contents in order (a missing optional object or key left out). `broken`: a missing
 * object or key, or one the track may not read: the commit is broken with the reason. `failed`: the
 * API server failed (not the tenant's doing): the run fails as when the cluster cannot be read.
 */
export type ValuesRead =
  | { state: 'read'; contents: ValuesContent[] }
  | { state: 'broken'; error: string }
  | { state: 'failed'; error: string };

interface ValuesObject {
  data?: Record<string, string>;
}

/**
 * Reads spec.helm.valuesFrom with `client`, which acts as the track (lib/identity: a GitTrack's
 * service account; a ClusterGitTrack the reconciler), each object once, as Flux does. Errors name
 * the entry, object and key; a Secret's content is never part of one.
 */
export async function readValuesFrom(
  client: KubeClient,
  refs: readonly ResolvedValuesReference[],
): Promise<ValuesRead> {
  const objects = new Map<string, ValuesObject | undefined>();
  const contents: ValuesContent[] = [];
  for (const [i, ref] of refs.entries()) {
    const object = `${ref.kind} ${ref.namespace}/${ref.name}`;
    const entry = `spec.helm.valuesFrom[${i}]: ${object}`;
    const plural = ref.kind === 'Secret' ? 'secrets' : 'configmaps';
    const path = resourcePath({ apiVersion: 'v1', plural, namespace: ref.namespace, name: ref.name });
    if (!objects.has(path)) {
      try {
        objects.set(path, await client.find<ValuesObject>(path, { subject: object }));
      } catch (e) {
        if (!isKubeApiError(e)) throw e;
        if (e.status === 403)
          return {
            state: 'broken',
            error: `${entry} may not be read as ${client.actingAs} (the track's identity): ${e.message}`,
          };
        return {
          state: 'failed',
          error: `${entry} could not be read: ${e.reason ?? e.status}: ${e.message}`,
        };
      }
    }
    const found = objects.get(path);
    const data = found?.data?.[ref.valuesKey];
    if (data === undefined) {
      if (ref.optional) continue;
      const missing = found === undefined ? 'not found' : `has no key ${ref.valuesKey}`;
      return { state: 'broken', error: `${entry} ${missing} (set optional: true to render without it)` };
    }
    contents.push({
      source: `${object} key ${ref.valuesKey}`,
      secret: ref.kind === 'Secret',
      ...(ref.targetPath ? { targetPath: ref.targetPath } : {}),
      content: ref.kind === 'Secret' ? Buffer.from(data, 'base64').toString('utf8') : data,
    });
  }
  return { state: 'read', contents };
}

/** A digest of the contents (for a render cache key): a changed object renders anew; never the values. */
export const valuesDigest = (contents: readonly ValuesContent[]): string =>
  createHash('sha256').update(JSON.stringify(contents)).digest('hex');
