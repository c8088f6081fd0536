import type { IgnoredManifest } from '../plan/planManifests';

/** An existing child the commit would change: its unified diff (Secret values masked). */
export interface ChangedObject {
  subject: string;
  diff: string;
}

/** A stale tracking object's child, and why the prune guards would refuse it (if they would). */
export interface PrunedObject {
  subject: string;
  refused?: string;
}

/** What applying a commit would do to a track's objects; nothing of it has happened. */
export interface DiffPlan {
  track: string;
  /** The commit compared, or `local DIR` for a working tree. */
  source: string;
  changed: ChangedObject[];
  created: string[];
  pruned: PrunedObject[];
  unchanged: number;
  ignored: IgnoredManifest[];
  conflicts: Array<{ subject: string; message: string }>;
  errors: string[];
}

/** Whether applying would change the cluster (a refused prune changes nothing). */
export const hasChanges = (plan: DiffPlan): boolean =>
  plan.changed.length > 0 || plan.created.length > 0 || plan.pruned.some((p) => p.refused === undefined);
