import type { DependsOnEntry } from '../track/trackObject';
import { type TrackKind, type TrackRef, trackLabel, trackRefOf } from '../track/trackRef';

/** The track as the dependency rules need it. */
export interface DependentTrack {
  kind: TrackKind;
  metadata: { name: string; namespace?: string | undefined };
  spec: { dependsOn?: DependsOnEntry[] | undefined };
}

export type DependencyRefs = { refs: TrackRef[] } | { refusal: string };

/**
 * The tracks a track depends on, or why its `spec.dependsOn` is refused. A GitTrack may depend
 * only on GitTracks of its own namespace (a GitTrack entry without a namespace means that one) and
 * on ClusterGitTracks: a tenant never waits on, nor learns anything about, another namespace. A
 * ClusterGitTrack may depend only on ClusterGitTracks: what a cluster administrator set up is
 * never held back by a track a tenant controls. Duplicates count once.
 */
export function dependencyRefs(track: DependentTrack): DependencyRefs {
  const self = trackLabel(trackRefOf(track));
  const refs = new Map<string, TrackRef>();
  for (const [i, entry] of (track.spec.dependsOn ?? []).entries()) {
    const at = `spec.dependsOn[${i}]`;
    let ref: TrackRef;
    if (entry.kind === 'ClusterGitTrack') {
      if (entry.namespace)
        return { refusal: `${at}: ClusterGitTrack/${entry.name} has no namespace (got ${entry.namespace})` };
      ref = { kind: 'ClusterGitTrack', name: entry.name };
    } else if (entry.kind === 'GitTrack') {
      if (track.kind === 'ClusterGitTrack')
        return {
          refusal: `${at}: ${self} may depend only on ClusterGitTracks, not on GitTrack/${entry.namespace ?? '?'}/${entry.name}`,
        };
      const own = track.metadata.namespace;
      const namespace = entry.namespace || own;
      if (namespace !== own)
        return {
          refusal: `${at}: ${self} may depend only on GitTracks of its own namespace ${own} and on ClusterGitTracks, not on GitTrack/${namespace}/${entry.name}`,
        };
      ref = { kind: 'GitTrack', namespace, name: entry.name };
    } else {
      return { refusal: `${at}: kind ${entry.kind} is neither GitTrack nor ClusterGitTrack` };
    }
    refs.set(trackLabel(ref), ref);
  }
  return { refs: [...refs.values()] };
}
