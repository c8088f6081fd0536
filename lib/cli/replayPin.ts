import { ConfigError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { pinTrack } from '../pin/trackPin';
import type { ReconcileSummary } from '../reconcile/types';
import type { TrackPin } from '../track/trackObject';
import type { TrackRef } from '../track/trackRef';

/**
 * What `--commit SHA` does to a track before it is applied: pins it there (spec.pin, written with
 * the caller's kubeconfig) so the next sweep or push does not undo the replay; with `--once` it
 * leaves the track as it is, and the replay lasts until the next sweep or push.
 */
export async function replayPin(
  openClient: () => Promise<KubeClient>,
  track: TrackRef,
  options: { commit: string | undefined; once: boolean | undefined },
): Promise<TrackPin | undefined> {
  if (options.once && options.commit === undefined)
    throw new ConfigError('--once needs --commit SHA: only a named commit can be applied once', {
      subject: '--once',
    });
  if (options.commit === undefined || options.once) return undefined;
  return pinTrack(await openClient(), track, options.commit);
}

/** The line printed after a `--once` replay: how long it lasts. */
export const onceNote = (summary: ReconcileSummary) =>
  `applied once, not pinned: the next sweep (within 5 minutes) or push applies ${
    summary.pin ? `the pin ${summary.pin.commit} again` : 'the head of the reference again'
  }`;
