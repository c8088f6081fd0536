import { isLightkeeperError } from '../errors';
import type { GitAuth } from '../git/authHeaders';
import { subtreeUnchanged } from '../git/subtreeUnchanged';
import { kustomizationFileIn } from '../kustomize/kustomizationFile';
import type { GitLimits } from '../settings/sourceLimits';
import type { TrackObject } from '../track/trackObject';

/** Where a dependency's commits may be read from, and how long for. */
export interface TreeSource {
  url: string;
  auth?: GitAuth | undefined;
  deadline?: number | undefined;
  cacheRoot?: string | undefined;
  limits?: GitLimits | undefined;
}

/**
 * Whether a dependency Ready at an older commit is as good as at `intended`: its subPath's tree is
 * the same at the commit it last applied and at `intended` (a push that touched only other
 * folders; for a kustomization, the whole commit's tree), so a reconcile of it would apply
 * exactly what it applied. Read from `source` only — the caller decides whose repository URL and
 * credentials the rules allow. A fetch that fails is `false`: the dependency is held behind, as it was before this comparison existed.
 */
export async function unchangedSinceApplied(
  dep: TrackObject,
  intended: string,
  source: TreeSource,
): Promise<boolean> {
  const applied = dep.status?.lastAppliedCommit;
  if (!applied || !intended) return false;
  try {
    // A chart is its own directory (spec.helm.chart, default subPath).
    const subPath = dep.spec.helm?.chart ?? dep.spec.subPath;
    return await subtreeUnchanged({
      ...source,
      subPath,
      from: applied,
      to: intended,
      // A kustomization may read bases anywhere in the repository: then only an identical commit tree
      // counts. A chart reads only its own directory.
      readsOutside: (names) => kustomizationFileIn(names) !== undefined,
    });
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    return false;
  }
}
