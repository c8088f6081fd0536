import type { TrackObject } from '../track/trackObject';
import type { ConditionInput } from './conditionInput';
import type { TrackEvent } from './trackEvents';

/**
 * One Warning when a chart's two renders disagree (the Parsed condition's reason
 * RenderNondeterministic, its message naming the objects and fields): said again only when that
 * message changes (a new commit, other fields), so sweeps of the same commit do not repeat it.
 */
export function renderEvents(track: TrackObject, parsed: ConditionInput | undefined): TrackEvent[] {
  if (parsed?.reason !== 'RenderNondeterministic') return [];
  const previous = track.status?.conditions?.find((c) => c.type === 'Parsed');
  if (previous?.reason === parsed.reason && previous.message === parsed.message) return [];
  return [{ type: 'Warning', reason: 'RenderNondeterministic', message: parsed.message }];
}
