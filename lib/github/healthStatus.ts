import type { HealthSummary } from '../reconcile/types';

/**
 * Whether a commit's health has settled: `failed` once any child has failed (or timed out, as the
 * track's `Healthy=False`), `healthy` when every child is, else `progressing`.
 */
export function healthState(health: HealthSummary): 'healthy' | 'failed' | 'progressing' {
  if (health.failed > 0) return 'failed';
  return health.progressing > 0 ? 'progressing' : 'healthy';
}

/** `healthy 1 of 2, failed 1: <the first child not healthy and why>`. */
export function healthLine(health: HealthSummary): string {
  const counts = `healthy ${health.healthy} of ${health.of}`;
  if (healthState(health) !== 'failed') return counts;
  return `${counts}, failed ${health.failed}${health.unhealthy[0] ? `: ${health.unhealthy[0]}` : ''}`;
}
