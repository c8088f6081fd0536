import type { TrackObject } from '../track/trackObject';
import type { ConditionInput } from './conditionInput';
import { skippedList } from './conditionTexts';
import type { TrackEvent } from './trackEvents';
import type { ReconcileSummary } from './types';

/**
 * One Warning per run that skipped manifests the track may not apply (the ownership table's
 * refusals: another namespace, a cluster-scoped object for a GitTrack), naming the first few. Said
 * again only when the skips change or the run changed the cluster, so sweeps do not repeat it.
 */
export function skippedEvents(
  track: TrackObject,
  summary: ReconcileSummary,
  ready: ConditionInput,
): TrackEvent[] {
  if (summary.ignored.length === 0 || summary.result === 'Aborted' || summary.result === 'Suspended')
    return [];
  const previous = track.status?.conditions?.find((c) => c.type === 'Ready');
  const { applied, pruned } = summary.counts;
  const repeated =
    ready.reason === 'ReconciliationSucceededWithSkips' &&
    previous?.reason === ready.reason &&
    previous.message === ready.message &&
    applied + pruned === 0;
  if (repeated) return [];
  return [
    {
      type: 'Warning',
      reason: 'SkippedForSafety',
      message: `${summary.commit ?? track.spec.reference}: skipped ${summary.ignored.length} objects this track may not apply: ${skippedList(summary.ignored, ', ')}`,
    },
  ];
}
