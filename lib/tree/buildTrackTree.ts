import { pruneDisabled, trackUidLabel } from '../manifests/metadataKeys';
import type { DeletionPolicy } from '../track/trackObject';
import type { LiveTracker } from '../tracker/liveTracker';

/** A child as a metadata-only GET shows it; undefined when it does not exist. */
export interface ChildMetadata {
  metadata: {
    uid: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: Array<{ uid: string; kind?: string; name?: string; controller?: boolean }>;
  };
}

export type ChildState = 'controlled' | 'labelled' | 'conflict' | 'missing' | 'unowned';

export interface TreeNode {
  tracker: { kind: string; namespace?: string | undefined; name: string };
  child: {
    apiVersion: string;
    kind: string;
    namespace?: string | undefined;
    name: string;
    uid?: string | undefined;
    state: ChildState;
    /** Why the state is what it is, for conflict, missing and unowned. `labelled`: no owner reference, only the track's label (a protected child). */
    detail?: string | undefined;
  };
  inSync: { status: string; reason?: string | undefined; message?: string | undefined } | undefined;
  /** The tracking object's `Healthy` condition (lib/health): the child's health at the last reconcile. */
  healthy?: { status: string; reason?: string | undefined; message?: string | undefined } | undefined;
  lastAppliedCommit?: string | undefined;
  /** Survives the deletion of its track and its tracking object (prune: disabled, or policy Orphan). */
  protected: boolean;
  conflict: boolean;
}

export interface TrackTree {
  track: { kind: string; namespace?: string | undefined; name: string; uid: string };
  deletionPolicy: DeletionPolicy;
  lastAppliedCommit?: string | undefined;
  ready?: { status: string; reason?: string | undefined; message?: string | undefined } | undefined;
  /** The track's `Healthy` condition: counts and the first children that are not healthy. */
  healthy?: { status: string; reason?: string | undefined; message?: string | undefined } | undefined;
  /** `status.objectsConflicting`: includes tracking objects other tracks hold, which are not in `nodes`. */
  objectsConflicting?: number | undefined;
  nodes: TreeNode[];
}

function childState(
  tracker: LiveTracker,
  child: ChildMetadata | undefined,
  trackUid: string,
): { state: ChildState; detail?: string } {
  if (!child) return { state: 'missing', detail: 'the child does not exist' };
  const controller = child.metadata.ownerReferences?.find((o) => o.controller);
  if (controller?.uid === tracker.metadata.uid) return { state: 'controlled' };
  if (controller)
    return {
      state: 'conflict',
      detail: `controlled by ${controller.kind ?? 'another object'} ${controller.name ?? controller.uid}`,
    };
  if (child.metadata.labels?.[trackUidLabel] === trackUid) return { state: 'labelled' };
  return { state: 'unowned', detail: 'no controller and no label of this track' };
}

/** The parts of a track's status the tree shows. */
export interface TrackStatusInput {
  lastAppliedCommit?: string | undefined;
  objectsConflicting?: number | undefined;
  conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> | undefined;
}

/** The tree of one track from its tracking objects and their children (pure). */
export function buildTrackTree(
  track: TrackTree['track'] & { deletionPolicy: DeletionPolicy },
  status: TrackStatusInput,
  trackers: ReadonlyArray<{ tracker: LiveTracker; child: ChildMetadata | undefined }>,
): TrackTree {
  const nodes = trackers.map(({ tracker, child }): TreeNode => {
    const { state, detail } = childState(tracker, child, track.uid);
    const inSync = tracker.status?.conditions?.find((c) => c.type === 'InSync') as
      | { status: string; reason?: string; message?: string }
      | undefined;
    const healthy = tracker.status?.conditions?.find((c) => c.type === 'Healthy') as
      | { status: string; reason?: string; message?: string }
      | undefined;
    const target = tracker.spec.target;
    return {
      tracker: { kind: tracker.kind, namespace: tracker.metadata.namespace, name: tracker.metadata.name },
      child: {
        apiVersion: target.apiVersion,
        kind: target.kind,
        namespace: tracker.kind === 'GitTrackObject' ? tracker.metadata.namespace : undefined,
        name: target.name,
        uid: child?.metadata.uid,
        state,
        detail,
      },
      inSync: inSync && { status: inSync.status, reason: inSync.reason, message: inSync.message },
      ...(healthy
        ? { healthy: { status: healthy.status, reason: healthy.reason, message: healthy.message } }
        : {}),
      lastAppliedCommit: tracker.status?.lastAppliedCommit,
      protected: track.deletionPolicy === 'Orphan' || (child !== undefined && pruneDisabled(child)),
      conflict: state === 'conflict' || inSync?.reason === 'OwnershipConflict',
    };
  });
  nodes.sort((a, b) => key(a).localeCompare(key(b)));
  const ready = status.conditions?.find((c) => c.type === 'Ready');
  const healthy = status.conditions?.find((c) => c.type === 'Healthy');
  const { deletionPolicy, ...identity } = track;
  return {
    track: identity,
    deletionPolicy,
    lastAppliedCommit: status.lastAppliedCommit,
    ready: ready && { status: ready.status, reason: ready.reason, message: ready.message },
    ...(healthy
      ? { healthy: { status: healthy.status, reason: healthy.reason, message: healthy.message } }
      : {}),
    objectsConflicting: status.objectsConflicting,
    nodes,
  };
}

const key = (n: TreeNode) => `${n.child.namespace ?? ''}/${n.child.kind}/${n.child.name}`;
