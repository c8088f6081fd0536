import { trackUidLabel } from '../manifests/metadataKeys';
import type { OwnerReference } from '../ownership/ownerReference';
import type { TrackOwner } from '../ownership/ownershipTable';
import type { PlannedObject } from '../plan/plannedObject';

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
