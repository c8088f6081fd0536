import type { HealthVerdict } from '../kstatus/healthVerdict';

/** How many of a track's children are healthy, still progressing, or failed, and which are not healthy. */
export interface TrackHealth {
  healthy: number;
  progressing: number;
  failed: number;
  /** `subject: message` of the first few children that are not healthy, failed ones first. */
  unhealthy: string[];
}

/** What the `Healthy` condition says beyond the counts (lib/reconcile/conditions.ts words it). */
export interface HealthFinding {
  /** Children assessed. */
  total: number;
  /** Not healthy beyond those named in `unhealthy`. */
  more: number;
  /** Every failed child failed by running out of spec.healthTimeout. */
  allTimedOut: boolean;
  /** The wait stopped because a newer reconcile of the track is queued. */
  newerRun?: true;
}

export const unhealthyListed = 5;

/** The track's counts and what its `Healthy` condition rests on, from its children's verdicts (pure). */
export function summarizeHealth(
  verdicts: ReadonlyArray<{ subject: string; verdict: HealthVerdict }>,
  newerRun?: boolean,
): { health: TrackHealth; finding: HealthFinding } {
  const count = (c: HealthVerdict['counted']) => verdicts.filter((v) => v.verdict.counted === c).length;
  const failedOnes = verdicts.filter((v) => v.verdict.counted === 'failed');
  const progressingOnes = verdicts.filter((v) => v.verdict.counted === 'progressing');
  const unhealthy = [...failedOnes, ...progressingOnes]
    .slice(0, unhealthyListed)
    .map((v) => `${v.subject}: ${v.verdict.message}`);
  const health = {
    healthy: count('healthy'),
    progressing: progressingOnes.length,
    failed: failedOnes.length,
    unhealthy,
  };
  const finding: HealthFinding = {
    total: verdicts.length,
    more: failedOnes.length + progressingOnes.length - unhealthy.length,
    allTimedOut: failedOnes.every((v) => v.verdict.reason === 'HealthCheckTimeout'),
    ...(newerRun ? { newerRun: true as const } : {}),
  };
  return { health, finding };
}
