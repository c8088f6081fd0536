import type { TrackObject } from '../track/trackObject';

/**
 * Whether a run made its track Ready anew: it succeeded, and before it the track was not Ready,
 * or Ready at another commit or an older generation. Only then are its dependents invoked, so
 * the sweep's reconcile of a track that stays Ready invokes nothing.
 */
export function becameReady(
  before: TrackObject,
  run: { result: string; commit?: string | undefined },
): boolean {
  if (run.result !== 'Succeeded') return false;
  const status = before.status;
  const ready = status?.conditions?.find((c) => c.type === 'Ready');
  return (
    ready?.status !== 'True' ||
    status?.lastAppliedCommit !== run.commit ||
    status?.observedGeneration !== (before.metadata.generation ?? 0)
  );
}
