import { BoundedMemo } from '../memo/boundedMemo';
import { hasExpectedReferences, isProtectedChild } from '../ownership/childOwnership';
import type { TrackOwner } from '../ownership/ownershipTable';
import type { PlannedObject } from '../plan/plannedObject';
import { type LiveTracker, trackerKey } from '../tracker/liveTracker';
import { trackerUpToDate } from '../tracker/trackerBody';
import type { ApplyContext } from './applyContext';
import { appliedFieldsDigest } from './fieldsDigest';
import type { LiveObject } from './liveChildren';
import { ownsManifestFields } from './ownsManifestFields';

/**
 * True when neither git nor the cluster changed since the last apply: nothing to write. The child's
 * references must be the ones it would be applied with now, so a change of protection (deletion
 * policy, annotation) re-applies once.
 */
export function inSync(
  p: PlannedObject,
  tracker: LiveTracker | undefined,
  child: LiveObject | undefined,
  track: TrackOwner,
  protectedChild: boolean,
): boolean {
  if (!tracker || !child || !trackerUpToDate(p, track, tracker)) return false;
  if (tracker.status?.lastAppliedDigest !== p.digest) return false;
  const references = (protectedNow: boolean) =>
    hasExpectedReferences(child.metadata.ownerReferences, tracker.metadata.uid, protectedNow);
  // Never does not change an existing child, its owner reference included: either state is kept.
  if (p.updateStrategy === 'Never') return references(protectedChild) || references(!protectedChild);
  if (!references(protectedChild)) return false;
  return fieldsKept(child, tracker, p);
}

/**
 * Drift is a change made in the cluster since our last apply of this very digest: the child gone,
 * or fields of that apply changed. A change of protection only (an owner reference to add or
 * drop) is not.
 */
export const drifted = (p: PlannedObject, tracker: LiveTracker | undefined, child: LiveObject | undefined) =>
  tracker?.spec.digest === p.digest &&
  tracker.status?.lastAppliedDigest === p.digest &&
  (!child || !fieldsKept(child, tracker, p));

/**
 * Our fields on the child are as our last apply left them: the field set the server answered
 * with, as recorded, or, for a tracking object that recorded its apply when it was created
 * (before that answer), every field of the manifest still ours.
 */
function fieldsKept(child: LiveObject, tracker: LiveTracker, p: PlannedObject): boolean {
  const recorded = tracker.status?.lastAppliedFieldsDigest;
  // No field set digests to anything else: a recorded value of another form (the CRD leaves its
  // length open) is never kept, and never becomes part of a memo key.
  if (recorded !== undefined && !fieldsDigestForm.test(recorded)) return false;
  const judge = () =>
    recorded === undefined ? ownsManifestFields(child, p) : appliedFieldsDigest(child, p) === recorded;
  const version = (child.metadata as { resourceVersion?: string }).resourceVersion;
  if (version === undefined) return judge();
  return kept.get(`${child.metadata.uid}@${version}#${p.digest}#${recorded ?? ''}`, judge);
}

const fieldsDigestForm = /^sha256:[0-9a-f]{64}$/;

// A child at one resourceVersion is the same bytes: checked against one planned digest (which
// covers the manifest and its ignore rules) and one recorded field digest once per process, so a
// warm function's no-op does not walk or hash every object's managed fields again (and `drifted`
// and `inSync` of one object share the answer). At most 20,000 answers of ~190-character keys
// (about 5 MB).
const kept = new BoundedMemo<string, boolean>(20_000);

/** How many answers the memo holds (for tests). */
export const fieldsKeptMemoSize = (): number => kept.size;

/** `inSync` of a planned object, from the apply's live state: the objects the apply will not write. */
export function plannedInSync(ctx: Pick<ApplyContext, 'trackers' | 'children' | 'track'>, p: PlannedObject) {
  const tracker = ctx.trackers.get(
    trackerKey(p.decision.tracker, p.decision.namespace, p.decision.trackerName),
  );
  return inSync(
    p,
    tracker,
    ctx.children.get(p.key),
    ctx.track,
    isProtectedChild(ctx.track, p.manifest.object),
  );
}
