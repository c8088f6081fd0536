import { OwnershipError } from '../errors';
import { pruneDisabled, trackUidLabel } from '../manifests/metadataKeys';
import type { DeletionPolicy } from '../track/trackObject';
import type { OwnerReference } from './ownerReference';
import { childOwnerReference, type OwnershipDecision, type TrackOwner } from './ownershipTable';

/**
 * `spec.deletionPolicy`, resolved once. Unset mirrors `spec.prune` (Flux's MirrorPrune): a track
 * that prunes deletes its children with it, a track that does not prune leaves them.
 */
export function effectiveDeletionPolicy(spec: {
  prune?: boolean | undefined;
  deletionPolicy?: DeletionPolicy | undefined;
}): DeletionPolicy {
  return spec.deletionPolicy ?? (spec.prune === false ? 'Orphan' : 'Delete');
}

/**
 * A protected child survives the deletion of its track and of its tracking object: it is annotated
 * `lightkeeper.dev/prune: disabled` in git, or its track's deletion policy is Orphan.
 */
export const isProtectedChild = (track: TrackOwner, desired: unknown): boolean =>
  pruneDisabled(desired) || track.deletionPolicy === 'Orphan';

/**
 * The owner references a child is applied with. An unprotected child is controlled by its tracking
 * object, so the garbage collector cascades every deletion above it. A protected child gets none:
 * the collector only deletes dependents, so nothing it does can reach the child; our label still
 * says whose it is, and server-side apply drops the reference an earlier apply of ours set.
 */
export function childOwnerReferences(
  decision: Extract<OwnershipDecision, { verdict: 'track' }>,
  trackerUid: string,
  childSubject: string,
  protectedChild: boolean,
): OwnerReference[] {
  return protectedChild ? [] : [childOwnerReference(decision, trackerUid, childSubject)];
}

interface Reference {
  uid: string;
  kind?: string;
  name?: string;
  controller?: boolean;
}

/** The references a live child must carry to be in sync with how it would be applied now. */
export function hasExpectedReferences(
  references: readonly Reference[] | undefined,
  trackerUid: string,
  protectedChild: boolean,
): boolean {
  const refs = references ?? [];
  if (protectedChild) return !refs.some((o) => o.uid === trackerUid || o.controller);
  return refs.find((o) => o.controller)?.uid === trackerUid;
}

/**
 * A protected child is applied without a controller reference, so the API server no longer refuses
 * a second controller for us: refuse an object that something else controls ourselves.
 */
export function refuseOtherController(
  live: { metadata: { ownerReferences?: readonly Reference[] | undefined } } | undefined,
  trackerUid: string,
  childSubject: string,
): void {
  const controller = live?.metadata.ownerReferences?.find((o) => o.controller);
  if (controller && controller.uid !== trackerUid) {
    throw new OwnershipError(
      `${childSubject} is controlled by ${controller.kind ?? 'another object'} ${controller.name ?? controller.uid}; not taking it over`,
      { subject: childSubject },
    );
  }
}

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
