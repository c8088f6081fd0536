import { lightkeeperResources } from '../kube/lightkeeperResources';
import type { OwnerReference } from '../ownership/ownerReference';
import type { TrackOwner } from '../ownership/ownershipTable';
import type { LiveTracker } from './liveState';
import { trackNameLabel, trackUidLabel } from './metadataKeys';
import type { PlannedObject } from './plannedObject';

/**
 * The tracking object as applied: target, source, digest and strategy — never the manifest's
 * content. `source.commit` is the commit that introduced the current digest, so a push that does
 * not change an object does not rewrite its tracking object.
 */
export function trackerBody(
  p: PlannedObject,
  track: TrackOwner,
  commit: string,
  live: LiveTracker | undefined,
) {
  const r = lightkeeperResources[p.decision.tracker];
  const sameContent = live?.spec.digest === p.digest && live.spec.source.path === p.manifest.source.path;
  return {
    apiVersion: r.apiVersion,
    kind: r.kind,
    metadata: {
      name: p.decision.trackerName,
      ...(r.namespaced ? { namespace: p.decision.namespace } : {}),
      // The track's name for `kubectl get` (a label value holds 63 characters; a longer name has none).
      labels: {
        [trackUidLabel]: track.uid,
        ...(track.name.length <= 63 ? { [trackNameLabel]: track.name } : {}),
      },
      ownerReferences: [p.decision.trackerOwner],
    },
    spec: {
      target: { apiVersion: p.manifest.ref.apiVersion, kind: p.manifest.ref.kind, name: p.manifest.ref.name },
      source: { path: p.manifest.source.path, commit: sameContent ? live.spec.source.commit : commit },
      digest: p.digest,
      updateStrategy: p.updateStrategy,
    },
  };
}

export function trackerUpToDate(p: PlannedObject, track: TrackOwner, live: LiveTracker | undefined): boolean {
  return (
    !!live &&
    live.spec.digest === p.digest &&
    live.spec.source.path === p.manifest.source.path &&
    live.spec.updateStrategy === p.updateStrategy &&
    live.spec.target.apiVersion === p.manifest.ref.apiVersion &&
    (live.metadata.ownerReferences ?? []).some((o) => o.uid === track.uid)
  );
}

/**
 * The child as applied: the manifest, plus our label and the owner references the ownership module
 * chose (none for a protected child, so server-side apply removes the one we applied before).
 */
export function childBody(p: PlannedObject, track: TrackOwner, ownerReferences: OwnerReference[]) {
  const { metadata } = p.manifest.object;
  const labels = typeof metadata.labels === 'object' && metadata.labels ? metadata.labels : {};
  return {
    ...p.manifest.object,
    metadata: {
      ...metadata,
      labels: { ...labels, [trackUidLabel]: track.uid },
      ...(ownerReferences.length > 0 ? { ownerReferences } : {}),
    },
  };
}

export function inSyncCondition(
  status: 'True' | 'False',
  reason: string,
  message: string,
  live?: LiveTracker,
) {
  const previous = live?.status?.conditions?.find((c) => c.type === 'InSync');
  const lastTransitionTime =
    previous?.status === status && previous.lastTransitionTime
      ? previous.lastTransitionTime
      : new Date().toISOString();
  return { type: 'InSync', status, reason, message, lastTransitionTime };
}

/**
 * The tracking object's conditions other than InSync (its `Healthy`, lib/health), kept when InSync
 * is written: a merge patch replaces the whole list, and an unchanged verdict must not be rewritten.
 */
export const otherConditions = (live: LiveTracker | undefined) =>
  (live?.status?.conditions ?? []).filter((c) => c.type !== 'InSync');

/**
 * The conditions of a successful apply: InSync, and the `Healthy` verdict when the apply's answer
 * already settles it (lib/health/healthAtApply.ts), in place of the one the tracking object had.
 */
export function appliedConditions(
  commit: string,
  live: LiveTracker | undefined,
  healthy?: { type: string; status: string },
) {
  const others = otherConditions(live).filter((c) => !healthy || c.type !== healthy.type);
  return [
    inSyncCondition('True', 'Applied', `applied at ${commit}`, live),
    ...(healthy ? [healthy] : []),
    ...others,
  ];
}
