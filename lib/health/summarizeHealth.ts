import type { HealthVerdict } from '../kstatus/healthVerdict';

/** How many of a track's children are healthy, still progressing, or failed, and which are not healthy. */
export interface TrackHealth {
  healthy: number;
  progressing: number;
  failed: number;
  /** `subject: message` of the first few children that are not healthy, failed ones first. */
  unhealthy: string[];
}

export interface TrackHealthCondition {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

export const unhealthyListed = 5;

/** The track's counts and its `Healthy` condition from its children's verdicts (pure). */
export function summarizeHealth(
  verdicts: ReadonlyArray<{ subject: string; verdict: HealthVerdict }>,
  note?: string,
): { health: TrackHealth; condition: TrackHealthCondition } {
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
  const total = verdicts.length;
  const more = failedOnes.length + progressingOnes.length - unhealthy.length;
  const lines = [
    `healthy ${health.healthy} of ${total}` +
      (health.progressing ? `, progressing ${health.progressing}` : '') +
      (health.failed ? `, failed ${health.failed}` : ''),
    ...unhealthy,
    ...(more > 0 ? [`…and ${more} more`] : []),
    ...(note ? [note] : []),
  ];
  const message = lines.join('\n');
  if (failedOnes.length > 0) {
    const timedOut = failedOnes.every((v) => v.verdict.reason === 'HealthCheckTimeout');
    return {
      health,
      condition: { status: 'False', reason: timedOut ? 'HealthCheckTimeout' : 'HealthCheckFailed', message },
    };
  }
  if (progressingOnes.length > 0)
    return { health, condition: { status: 'Unknown', reason: 'Progressing', message } };
  return { health, condition: { status: 'True', reason: 'Healthy', message } };
}
