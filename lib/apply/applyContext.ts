import type { TrackIdentity } from '../identity/trackIdentity';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import type { KubeObject } from '../manifests';
import type { TrackOwner } from '../ownership/ownershipTable';
import type { PlannedObject } from '../plan/plannedObject';
import type { LiveTracker } from '../tracker/liveTracker';
import type { TrackerStatusModes } from '../tracker/patchTrackerStatus';
import type { WrittenConditions } from '../tracker/writtenConditions';
import type { LiveObject } from './liveChildren';

/** What applying one planned object needs: the clients, the track, and the batch's live state. */
export interface ApplyContext {
  /** Writes tracking objects. */
  client: KubeClient;
  /** Reads and writes children: the track's identity (lib/identity), never more. */
  childClient: KubeClient;
  /** Who `childClient` acts as. */
  identity: TrackIdentity;
  track: TrackOwner;
  commit: string;
  trackers: ReadonlyMap<string, LiveTracker>;
  children: ReadonlyMap<string, LiveObject>;
  recreateTimeoutMs: number;
  /** How the server takes each tracking-object kind's status (lib/tracker/patchTrackerStatus.ts). */
  statusModes: TrackerStatusModes;
  /** Receives every status this apply writes on a tracking object (for the health step). */
  written: WrittenConditions;
  /** Objects (by key) whose dry-run passed, the rights of a new child's apply asked with it. */
  validated?: ReadonlySet<string>;
  /** Children read in full for their ignored fields, shared by the dry-run and the apply (lib/apply/ignoringApply.ts). */
  read?: Map<string, KubeObject | undefined>;
}

/** The child's address. */
export const childPath = (p: PlannedObject) =>
  resourcePath({ ...p.resource, namespace: p.decision.namespace, name: p.manifest.ref.name });

/** The tracking object's resource, namespace and name. */
export const trackerTarget = (p: PlannedObject) => ({
  ...lightkeeperResources[p.decision.tracker],
  namespace: p.decision.namespace,
  name: p.decision.trackerName,
});

/** How errors name the tracking object. */
export const trackerSubject = (p: PlannedObject) =>
  `${p.decision.tracker}/${p.decision.trackerName} for ${p.subject}`;
