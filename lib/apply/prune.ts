import { isNotFound } from '../errors';
import type { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import { formatRef, splitApiVersion } from '../manifests';
import type { Change } from '../reconcile/types';
import type { LiveObject, LiveTracker } from './liveState';
import { pruneDisabled } from './metadataKeys';

/**
 * Removes tracking objects that are no longer desired. Deleting a tracking object (background
 * propagation) lets the garbage collector remove its child; a child annotated
 * `lightkeeper.dev/prune: disabled` is orphaned instead: our owner reference is removed first,
 * then the tracking object is deleted. The caller decides whether pruning is allowed at all.
 */
export async function pruneTrackers(
  client: KubeClient,
  childClient: KubeClient,
  discovery: Discovery,
  stale: readonly LiveTracker[],
): Promise<Change[]> {
  return Promise.all(stale.map((t) => pruneOne(client, childClient, discovery, t)));
}

async function pruneOne(
  client: KubeClient,
  childClient: KubeClient,
  discovery: Discovery,
  t: LiveTracker,
): Promise<Change> {
  const { target } = t.spec;
  const namespace = t.kind === 'GitTrackObject' ? t.metadata.namespace : undefined;
  const { group } = splitApiVersion(target.apiVersion) ?? { group: '' };
  const subject = formatRef({ group, kind: target.kind, namespace, name: target.name });
  const trackerPath = resourcePath({ ...lightkeeperResources[t.kind], namespace, name: t.metadata.name });
  try {
    const resource = discovery.resourceFor(target.apiVersion, target.kind);
    const childPath =
      resource && resourcePath({ ...resource, apiVersion: target.apiVersion, namespace, name: target.name });
    const child = childPath ? await childClient.find<LiveObject>(childPath) : undefined;
    if (child && childPath && pruneDisabled(child)) {
      const refs = child.metadata.ownerReferences ?? [];
      const index = refs.findIndex((o) => o.uid === t.metadata.uid);
      if (index >= 0) {
        await childClient.request('PATCH', childPath, {
          contentType: 'application/json-patch+json',
          body: [
            { op: 'test', path: `/metadata/ownerReferences/${index}/uid`, value: t.metadata.uid },
            { op: 'remove', path: `/metadata/ownerReferences/${index}` },
          ],
          subject,
        });
      }
      await client.request('DELETE', trackerPath, { query: { propagationPolicy: 'Orphan' }, subject });
      return { subject, action: 'orphaned', message: 'lightkeeper.dev/prune: disabled' };
    }
    await client.request('DELETE', trackerPath, { query: { propagationPolicy: 'Background' }, subject });
    return { subject, action: 'deleted' };
  } catch (e) {
    if (isNotFound(e)) return { subject, action: 'deleted' };
    return { subject, action: 'failed', message: `pruning ${subject}: ${(e as Error).message}` };
  }
}
