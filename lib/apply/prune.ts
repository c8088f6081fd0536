import { isKubeApiError, isNotFound } from '../errors';
import type { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import { formatRef, splitApiVersion } from '../manifests';
import { pruneAnnotation, pruneDisabled } from '../manifests/metadataKeys';
import { childOwnership } from '../ownership/childOwnership';
import type { TrackOwner } from '../ownership/ownershipTable';
import type { LiveTracker } from '../tracker/liveTracker';
import type { Change } from './change';
import type { LiveObject } from './liveChildren';

export interface PruneContext {
  /** Deletes tracking objects: lightkeeper's own bookkeeping. */
  client: KubeClient;
  /** Reads and deletes children: the track's identity (lib/identity), never more. */
  childClient: KubeClient;
  discovery: Discovery;
  track: TrackOwner;
}

/** Why a stale object whose type is not served is left alone (and its tracking object kept). */
export const unservedMessage = (target: { apiVersion: string; kind: string }) =>
  `${target.kind} ${target.apiVersion} is not served by the API server now, in any version: not pruned, its tracking object is kept until the type is served again`;

/**
 * Removes tracking objects that are no longer desired. The child goes first, deleted by the track's
 * own identity with a UID precondition, and only when it is ours (childOwnership); a child annotated
 * `lightkeeper.dev/prune: disabled` is orphaned (our owner reference removed), and a child that is
 * not ours is left alone. Only then is the tracking object deleted, with orphan propagation: the
 * garbage collector deletes nothing on the track's behalf, so a prune can never do what the track's
 * identity could not (delete an object it could only patch, or one somebody else pointed at our
 * tracking object). Any error on the child fails that object's prune and keeps its tracking object;
 * a child whose type discovery does not list is `unavailable`, and its tracking object kept too.
 * The caller decides whether pruning is allowed at all.
 */
export async function pruneTrackers(ctx: PruneContext, stale: readonly LiveTracker[]): Promise<Change[]> {
  return Promise.all(stale.map((t) => pruneOne(ctx, t)));
}

async function pruneOne(ctx: PruneContext, t: LiveTracker): Promise<Change> {
  const { target } = t.spec;
  const namespace = t.kind === 'GitTrackObject' ? t.metadata.namespace : undefined;
  const { group } = splitApiVersion(target.apiVersion) ?? { group: '' };
  const subject = formatRef({ group, kind: target.kind, namespace, name: target.name });
  const trackerPath = resourcePath({ ...lightkeeperResources[t.kind], namespace, name: t.metadata.name });
  try {
    const change = await releaseChild(ctx, t, subject, namespace);
    // Not proven gone: the tracking object stays, so a later run can still prune the child.
    if (change.action === 'unavailable') return change;
    await ctx.client
      .request('DELETE', trackerPath, {
        query: { propagationPolicy: 'Orphan' },
        subject: `${t.kind}/${t.metadata.name} for ${subject}`,
      })
      .catch((e) => {
        if (!isNotFound(e)) throw e;
      });
    return change;
  } catch (e) {
    // The API error names the object; its reason (Forbidden, Conflict…) says why.
    const why = isKubeApiError(e) ? `${e.reason ?? e.status}: ${e.message}` : (e as Error).message;
    return {
      subject,
      action: 'failed',
      message: `pruning ${subject} failed, its tracking object is kept: ${why}`,
    };
  }
}

/** Deletes, orphans or leaves the child; what happened to it is what the prune reports. */
async function releaseChild(
  ctx: PruneContext,
  t: LiveTracker,
  subject: string,
  namespace: string | undefined,
): Promise<Change> {
  const { target } = t.spec;
  // Read in the version the server serves, when it no longer serves the one applied.
  const resource = ctx.discovery.resourceInAnyVersion(target.apiVersion, target.kind);
  // A kind missing from discovery is no proof its objects are gone: an aggregated API may be down
  // for a moment, a CRD may serve none of its versions for a while.
  if (!resource) return { subject, action: 'unavailable', message: unservedMessage(target) };
  const apiVersion = resource.group ? `${resource.group}/${resource.version}` : resource.version;
  const path = resourcePath({ ...resource, apiVersion, namespace, name: target.name });
  const child = await ctx.childClient.find<LiveObject>(path, { subject });
  if (!child) return { subject, action: 'deleted' };

  if (pruneDisabled(child)) {
    const refs = child.metadata.ownerReferences ?? [];
    const index = refs.findIndex((o) => o.uid === t.metadata.uid);
    if (index >= 0) {
      await ctx.childClient.request('PATCH', path, {
        contentType: 'application/json-patch+json',
        body: [
          { op: 'test', path: `/metadata/ownerReferences/${index}/uid`, value: t.metadata.uid },
          { op: 'remove', path: `/metadata/ownerReferences/${index}` },
        ],
        subject,
      });
    }
    return { subject, action: 'orphaned', message: `${pruneAnnotation}: disabled` };
  }

  const ownership = childOwnership(child, { trackerUid: t.metadata.uid, trackUid: ctx.track.uid });
  if (!ownership.ours) {
    return { subject, action: 'orphaned', message: `not deleted: ${ownership.reason}` };
  }
  try {
    await ctx.childClient.request('DELETE', path, {
      query: { propagationPolicy: 'Background' },
      body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: child.metadata.uid } },
      subject,
    });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  return { subject, action: 'deleted' };
}
