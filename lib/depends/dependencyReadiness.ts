import { isFullSha } from '../git/resolveReference';

/** What readiness reads of a dependency: its spec's reference and pin, and its status. */
export interface DependencyView {
  metadata: { generation?: number | undefined };
  spec: { reference: string; pin?: { commit: string } | undefined };
  status?:
    | {
        observedGeneration?: number | undefined;
        lastAppliedCommit?: string | undefined;
        conditions?:
          | Array<{
              type: string;
              status: string;
              reason: string;
              message: string;
              observedGeneration?: number | undefined;
            }>
          | undefined;
      }
    | undefined;
}

/** `behind`: Ready, but at an older commit than it is meant to be at (nothing else is wrong). */
export type Readiness = { ready: true; commit: string } | { ready: false; reason: string; behind?: true };

/**
 * The commit a dependency is meant to be at when its spec alone says so: its pin (what every
 * reconcile of it applies, lib/reconcile/pinnedCommit), else its reference when that is a full
 * SHA. Undefined for a branch or tag: the head of the reference must be listed.
 */
export function intendedCommit(spec: DependencyView['spec']): string | undefined {
  if (spec.pin) return spec.pin.commit;
  return isFullSha(spec.reference) ? spec.reference.toLowerCase() : undefined;
}

/**
 * Whether a dependency is Ready at its current commit: the Ready condition is True, it and the
 * status observed the track's current generation (so a spec change not yet reconciled does not
 * count), and the last commit it applied in full is `intended` (its pin, its SHA, or the head its
 * reference names now). A dependency at an older commit than it should be is not ready.
 * `withheld` (a ClusterGitTrack seen from a tenant's GitTrack): each reason is a fixed phrase with
 * the Ready reason at most — no message (file names and errors of the platform's repository), no
 * commit and no generation.
 */
export function dependencyReadiness(
  dep: DependencyView,
  intended: string,
  options: { withheld?: boolean } = {},
): Readiness {
  const withheld = options.withheld === true;
  const generation = dep.metadata.generation ?? 0;
  const status = dep.status ?? {};
  const ready = status.conditions?.find((c) => c.type === 'Ready');
  if (!ready) return { ready: false, reason: 'not reconciled yet' };
  if (status.observedGeneration !== generation || (ready.observedGeneration ?? generation) !== generation)
    return {
      ready: false,
      reason: withheld
        ? 'its current generation is not reconciled yet'
        : `generation ${generation} not reconciled yet (observed ${status.observedGeneration ?? 'none'})`,
    };
  if (ready.status !== 'True') {
    const why = withheld ? undefined : ready.message.split('\n')[0]?.slice(0, 200);
    return { ready: false, reason: `not Ready (${ready.reason}${why ? `: ${why}` : ''})` };
  }
  const applied = status.lastAppliedCommit;
  if (!applied) return { ready: false, reason: 'has applied no commit yet' };
  if (applied !== intended)
    return {
      ready: false,
      reason: withheld
        ? 'Ready, but not yet at the commit it is meant to be at'
        : `Ready at ${applied}, not yet at ${intended}`,
      behind: true,
    };
  return { ready: true, commit: applied };
}
