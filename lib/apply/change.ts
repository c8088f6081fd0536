/**
 * What happened to one object: a closed set, as in fluxcd/pkg ssa. `skipped` is an object left alone
 * on purpose (update strategy Never and it exists); it counts as in sync. `conflict` is an object
 * another track or controller owns (its tracking object or the child itself): not taken over, and
 * unlike `failed` it does not stop the prune of this track's other objects. `unavailable` is a stale
 * object whose type the server does not serve now (an aggregated API down, a version no longer
 * served): it may still exist, so it is not pruned, and its tracking object is kept for a later run.
 */
export type ChangeAction =
  | 'created'
  | 'configured'
  | 'unchanged'
  | 'deleted'
  | 'orphaned'
  | 'skipped'
  | 'conflict'
  | 'unavailable'
  | 'failed';

export interface Change {
  /** `Kind.group/namespace/name`, formatted by lib/manifests formatRef. */
  subject: string;
  action: ChangeAction;
  /** Set for failed and skipped objects, and for configured ones that had drifted. */
  message?: string;
  /** True when the object was configured because its live state had drifted from the commit. */
  drifted?: boolean;
}
