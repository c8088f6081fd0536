/** The two kinds of track: a tenant's namespaced GitTrack and the platform's ClusterGitTrack. */
export type TrackKind = 'GitTrack' | 'ClusterGitTrack';

export interface TrackRef {
  kind: TrackKind;
  /** Required for a GitTrack, absent for a ClusterGitTrack. */
  namespace?: string | undefined;
  name: string;
}

/**
 * `GitTrack/ns/name` or `ClusterGitTrack/name`: THE label of a track in messages, logs, metrics,
 * Events and map keys.
 */
export const trackLabel = (ref: TrackRef): string =>
  ref.namespace ? `${ref.kind}/${ref.namespace}/${ref.name}` : `${ref.kind}/${ref.name}`;

/** The reference of a track object: a ClusterGitTrack has no namespace, whatever its metadata says. */
export const trackRefOf = (track: {
  kind: TrackKind;
  metadata: { name: string; namespace?: string | undefined };
}): TrackRef => ({
  kind: track.kind,
  namespace: track.kind === 'GitTrack' ? track.metadata.namespace : undefined,
  name: track.metadata.name,
});
