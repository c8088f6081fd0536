import type { Change } from '../apply/change';
import type { Deployed } from './types';

const inSyncActions: ReadonlySet<Change['action']> = new Set([
  'created',
  'configured',
  'unchanged',
  'skipped',
]);

/**
 * How much of a commit the cluster runs after applying it: the objects now in sync with it, of
 * `of` (its objects for this track, not ignored). `undefined` means the apply never started.
 */
export function deployedOf(changes: readonly Change[], of: number | undefined, broken: boolean): Deployed {
  if (broken) return { extent: 'broken', objects: 0, of: of ?? 0 };
  const objects = changes.filter((c) => inSyncActions.has(c.action)).length;
  if (of === undefined) return { extent: 'none', objects, of: objects };
  if (objects >= of) return { extent: 'full', objects, of };
  return { extent: objects === 0 ? 'none' : 'partial', objects, of };
}

/** "applied 2 of 3 objects at <commit>": what an Applied condition and the CLI say of a partial apply. */
export const appliedOf = (d: Deployed, commit: string) =>
  `applied ${d.objects} of ${d.of} objects at ${commit}`;
