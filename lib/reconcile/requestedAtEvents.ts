import { requestedAtAnnotation } from '../manifests/metadataKeys';
import { maxRequestedAtLength, requestedAtProblem, requestToken } from '../track/requestedAt';
import type { TrackObject } from '../track/trackObject';
import type { TrackEvent } from './trackEvents';

/**
 * One Warning from the run that handles a `lightkeeper.dev/requestedAt` value it may not copy (too
 * long, or with control characters): it names the digest status records instead, never the value.
 * Runs after it, which see that digest already handled, say nothing.
 */
export function requestedAtEvents(track: TrackObject): TrackEvent[] {
  const value = track.metadata.annotations?.[requestedAtAnnotation];
  const problem = value === undefined ? undefined : requestedAtProblem(value);
  const token = requestToken(value);
  if (problem === undefined || token === track.status?.lastHandledRequestedAt) return [];
  return [
    {
      type: 'Warning',
      reason: 'RequestedAtRefused',
      message: `the annotation ${requestedAtAnnotation} was not copied (${problem}): this reconcile handled it as ${token}; a request is a time stamp of at most ${maxRequestedAtLength} printable characters, as \`lightkeeper reconcile --request\` writes`,
    },
  ];
}
