import { isConflict } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { loadTrack, trackPath } from '../track/loadTrack';
import type { TrackObject } from '../track/trackObject';
import { type TrackRef, trackLabel } from '../track/trackRef';

const attempts = 8;

/**
 * A conditional write of the track's status: read the track, let `change` compute the status fields
 * to merge from what it read (undefined: write nothing), and patch them with the resourceVersion
 * read, so a concurrent writer (another shard) makes the server answer 409 and this reads again.
 * Returns what `change` returned for the write that landed.
 */
export async function writeShards<T extends { status: Record<string, unknown> }>(
  client: KubeClient,
  ref: TrackRef,
  change: (track: TrackObject) => T | undefined,
): Promise<T | undefined> {
  for (let attempt = 1; ; attempt++) {
    const track = await loadTrack(client, ref);
    const next = change(track);
    if (next === undefined) return undefined;
    try {
      await client.request('PATCH', trackPath(ref, 'status'), {
        body: { metadata: { resourceVersion: track.metadata.resourceVersion }, status: next.status },
        contentType: 'application/merge-patch+json',
        subject: trackLabel(ref),
      });
      return next;
    } catch (e) {
      if (!isConflict(e) || attempt >= attempts) throw e;
      await new Promise((r) => setTimeout(r, 20 * attempt * Math.random()));
    }
  }
}
