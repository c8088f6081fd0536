import { identityKey, type Manifest, splitApiVersion } from '../manifests';
import type { PlannedObject } from '../plan/plannedObject';
import type { LiveTracker } from '../tracker/liveTracker';
import { trackerKey } from '../tracker/liveTracker';

/**
 * Tracking objects whose child no longer has a manifest in the commit. A manifest that is still
 * there but now ignored (a deployment mode, a namespace rule) keeps its tracking object: only
 * removing a manifest from git proves its object should go. A tracking object labelled with our
 * UID but controlled by another track is that track's (an ownership conflict), never ours to prune.
 */
export function staleTrackers(
  trackers: ReadonlyMap<string, LiveTracker>,
  planned: readonly PlannedObject[],
  manifests: readonly Manifest[],
  trackUid: string,
): LiveTracker[] {
  const desired = new Set(
    planned.map((p) => trackerKey(p.decision.tracker, p.decision.namespace, p.decision.trackerName)),
  );
  const present = new Set<string>();
  for (const m of manifests) {
    present.add(identityKey(m.ref));
    // Without a namespace in git, the object may live in whichever namespace was defaulted.
    if (m.ref.namespace === undefined) present.add(identityKey({ ...m.ref, namespace: '*' }));
  }
  return [...trackers.entries()]
    .filter(([key, t]) => {
      if (desired.has(key)) return false;
      const controller = t.metadata.ownerReferences?.find((o) => o.controller);
      if (controller && controller.uid !== trackUid) return false;
      const group = splitApiVersion(t.spec.target.apiVersion)?.group ?? '';
      const namespace = t.kind === 'GitTrackObject' ? t.metadata.namespace : undefined;
      const target = { group, kind: t.spec.target.kind, name: t.spec.target.name };
      return (
        !present.has(identityKey({ ...target, namespace })) &&
        !present.has(identityKey({ ...target, namespace: '*' }))
      );
    })
    .map(([, t]) => t);
}
