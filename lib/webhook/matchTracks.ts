import { repositoryKey } from '../git/repositoryKey';
import { isFullSha } from '../git/resolveReference';
import { deliveryServed } from '../reconcile/deliveryServed';
import { type DeploymentConfig, trackRefusal } from '../settings/deploymentModes';
import type { ListedTrack } from '../track/listedTrack';
import type { TrackRef } from '../track/trackRef';
import type { PushEvent } from './parsePush';
import { pushedRef } from './pushedRef';
import { normalizeSubPath, touchesSubPath } from './touchesSubPath';

export interface SkippedTrack {
  track: TrackRef;
  reason: string;
}

/** Which tracks a push triggers; `skipped` lists the tracks of the pushed repository left alone, and why. */
export interface TrackMatch {
  triggered: TrackRef[];
  skipped: SkippedTrack[];
}

/**
 * The tracks a push must reconcile: same repository (any URL form), a `reference` naming the pushed
 * branch or tag, allowed by the deployment modes, not suspended, not pinned to a commit, and — when
 * the push says which files it touched — with at least one of them under the track's `subPath`;
 * and not served already (this delivery, or its commit applied: lib/webhook/deliveryServed.ts).
 */
export function matchTracks(
  push: PushEvent,
  tracks: readonly ListedTrack[],
  config: DeploymentConfig,
  delivery?: string,
): TrackMatch {
  const pushed = new Set(push.repositoryUrls.map(repositoryKey).filter((key) => key !== undefined));
  const names = referenceNames(push);
  const match: TrackMatch = { triggered: [], skipped: [] };
  for (const track of tracks) {
    const key = repositoryKey(track.spec.repository);
    if (key === undefined || !pushed.has(key)) continue;
    const reason =
      skipReason(track, push, names, config) ?? deliveryServed(track, { delivery, after: push.after });
    if (reason) match.skipped.push({ track: track.ref, reason });
    else match.triggered.push(track.ref);
  }
  return match;
}

/** Every `reference` value that names the pushed ref. */
function referenceNames(push: PushEvent): Set<string> {
  const ref = pushedRef(push.ref);
  const names = new Set([ref.ref]);
  if (ref.type !== 'other') names.add(ref.name);
  if (ref.type === 'branch' && ref.name === push.defaultBranch) names.add('HEAD');
  return names;
}

function skipReason(
  track: ListedTrack,
  push: PushEvent,
  names: Set<string>,
  config: DeploymentConfig,
): string | undefined {
  const { reference, subPath, suspend } = track.spec;
  if (isFullSha(reference)) return `pinned to commit ${reference}`;
  if (!names.has(reference)) return `tracks ${reference}, not ${push.ref}`;
  const refusal = trackRefusal(config, track.ref);
  if (refusal) return refusal;
  if (suspend === true) return 'suspended';
  if (push.touchedPaths !== undefined && !touchesSubPath(push.touchedPaths, subPath)) {
    return `no file under ${normalizeSubPath(subPath)}/ changed`;
  }
  return undefined;
}
