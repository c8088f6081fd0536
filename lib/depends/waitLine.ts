import { reconcileHint } from '../track/trackCommandLine';
import { trackLabel } from '../track/trackRef';
import type { DependencyWait } from './dependencyCheck';

/**
 * One dependency a run waits for, why, and the command that brings it forward now (a reconcile of
 * it; one that is not found has none: it must be created).
 */
export function waitLine(w: DependencyWait): string {
  const line = `${trackLabel(w.track)}: ${w.reason}`;
  return w.reason === 'not found' ? line : `${line} (unblock: ${reconcileHint(w.track)})`;
}
