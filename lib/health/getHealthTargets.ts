import pLimit from 'p-limit';
import { isLightkeeperError, isNotFound } from '../errors';
import type { Unstructured } from '../kstatus/fields';
import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import { trackUidLabel } from '../manifests/metadataKeys';
import type { TrackOwner } from '../ownership/ownershipTable';
import { typeKey } from '../plan/plannedObject';
import { type HealthTarget, type LiveForHealth, readHealthTargets } from './readHealthTargets';

const metadataOnly = new Set(['/ConfigMap', '/Secret']);
const metadataObject = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
/** Past this many children one LIST per type costs less than a GET of each. */
const maxGets = 500;

/**
 * readHealthTargets for the few children of an incremental run: a GET of each (a Secret's or
 * ConfigMap's metadata only) instead of a LIST of its type, seeing what the LIST's label selector
 * would (a child without this track's label is absent; a GitTrack sees its own namespace). A type
 * whose GET is refused otherwise than by a 404 is read by its LIST, as readHealthTargets reads it.
 */
export async function getHealthTargets(
  client: KubeClient,
  track: TrackOwner,
  targets: readonly HealthTarget[],
): Promise<LiveForHealth> {
  if (targets.length > maxGets) return readHealthTargets(client, track, targets);
  const objects = new Map<string, Unstructured>();
  const refused: HealthTarget[] = [];
  const limit = pLimit(16);
  await Promise.all(
    targets.map((t) =>
      limit(async () => {
        const { resource, manifest, key } = t.planned;
        const namespace = resource.namespaced ? manifest.ref.namespace : undefined;
        if (track.kind === 'GitTrack' && resource.namespaced && namespace !== track.namespace) return;
        const kind = manifest.ref.kind;
        const group = resource.apiVersion.includes('/') ? resource.apiVersion.split('/')[0] : '';
        let item: Unstructured & { metadata?: { labels?: Record<string, string> } };
        try {
          item = await client.get(resourcePath({ ...resource, namespace, name: manifest.ref.name }), {
            ...(metadataOnly.has(`${group}/${kind}`) ? { accept: metadataObject } : {}),
          });
        } catch (e) {
          if (isNotFound(e)) return;
          if (!isLightkeeperError(e)) throw e;
          refused.push(t);
          return;
        }
        if (item.metadata?.labels?.[trackUidLabel] !== track.uid) return;
        objects.set(key, { ...item, apiVersion: resource.apiVersion, kind });
      }),
    ),
  );
  if (refused.length === 0) return { objects, unreadable: new Map() };
  const listed = await readHealthTargets(client, track, refused);
  for (const [k, o] of listed.objects) objects.set(k, o);
  const types = new Set(refused.map((t) => typeKey(t.planned.resource)));
  return { objects, unreadable: new Map([...listed.unreadable].filter(([type]) => types.has(type))) };
}
