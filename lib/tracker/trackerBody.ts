import { lightkeeperResources } from '../kube/lightkeeperResources';
import { trackNameLabel, trackUidLabel } from '../manifests/metadataKeys';
import type { TrackOwner } from '../ownership/ownershipTable';
import type { PlannedObject } from '../plan/plannedObject';
import type { LiveTracker } from './liveTracker';

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
