import { ConfigError, TrackNotFoundError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import type { TrackObject } from './trackObject';
import { type TrackRef, trackLabel } from './trackRef';

/** The API path of a track, or of one of its subresources (`status`). */
export function trackPath(ref: TrackRef, subresource?: string): string {
  return resourcePath({
    ...lightkeeperResources[ref.kind],
    namespace: ref.namespace,
    name: ref.name,
    subresource,
  });
}

/** Reads a track; a TrackNotFoundError when it does not exist. */
export async function loadTrack(client: KubeClient, ref: TrackRef): Promise<TrackObject> {
  if (ref.kind === 'GitTrack' && !ref.namespace)
    throw new ConfigError(`${trackLabel(ref)}: a GitTrack needs a namespace`);
  const track = await client.find<TrackObject>(trackPath(ref));
  if (!track) throw new TrackNotFoundError(`${trackLabel(ref)} not found`, { subject: trackLabel(ref) });
  return { ...track, kind: ref.kind };
}
