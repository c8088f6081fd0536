import { join } from 'node:path';
import { isLightkeeperError, type LightkeeperError } from '../errors';
import type { GitLimits } from '../settings/sourceLimits';
import type { KustomizeSource } from './findKustomization';
import { materializeCommit } from './materializeCommit';

/**
 * The directory a render engine reads: a local directory as it is, or a commit written out under
 * `scratch` (materializeCommit). A tree git refuses (`..`, `.git`, a name twice), or a commit too
 * large to write out (a GitLimitError), is `refused`: it breaks the commit as a failed render does.
 * `only`: of a commit, write out just that directory (a chart's: it reads nothing else).
 */
export async function renderRoot(
  source: KustomizeSource,
  scratch: string,
  limits: GitLimits,
  only?: string,
): Promise<{ root: string; refused?: LightkeeperError }> {
  if (source.kind === 'local') return { root: source.dir };
  const root = join(scratch, 'repo');
  try {
    await materializeCommit({ dir: source.dir, commit: source.commit, into: root, limits, only });
    return { root };
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    return { root, refused: e };
  }
}
