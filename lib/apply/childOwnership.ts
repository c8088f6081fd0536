import { trackUidLabel } from './metadataKeys';

interface ChildMetadata {
  labels?: Record<string, string>;
  ownerReferences?: Array<{ uid: string; kind?: string; name?: string; controller?: boolean }>;
}

export type ChildOwnership = { ours: true } | { ours: false; reason: string };

/**
 * Whether a live child is ours to delete (prune, Recreate): its controller is our tracking object
 * (by UID), or it has no controller at all and carries our track's UID label (a child applied
 * without an owner reference). Anything else — another controller, or an object we never labelled —
 * is someone else's, however it came to be tracked.
 */
export function childOwnership(
  live: { metadata: object },
  ours: { trackerUid: string; trackUid: string },
): ChildOwnership {
  const metadata = live.metadata as ChildMetadata;
  const controller = metadata.ownerReferences?.find((o) => o.controller);
  if (controller) {
    return controller.uid === ours.trackerUid
      ? { ours: true }
      : { ours: false, reason: `it is controlled by ${controller.kind} ${controller.name}` };
  }
  return metadata.labels?.[trackUidLabel] === ours.trackUid
    ? { ours: true }
    : { ours: false, reason: `it has no controller and no ${trackUidLabel} label of this track` };
}
