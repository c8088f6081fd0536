import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import { type DeploymentConfig, trackRefusal } from '../settings/deploymentModes';
import type { TrackObject } from '../track/trackObject';
import { type TrackKind, type TrackRef, trackLabel, trackRefOf } from '../track/trackRef';
import { dependencyRefs } from './dependencyRefs';

/** A track whose spec.dependsOn names the reconciled one, and whether both follow the same repository. */
export interface Dependent {
  track: TrackRef;
  /** Same `spec.repository`: a push to it concerns both (and its commit status too). */
  sameRepository: boolean;
}

interface TrackList {
  metadata?: { continue?: string };
  items: Array<Omit<TrackObject, 'kind'>>;
}

/**
 * The tracks this deployment reconciles whose `spec.dependsOn` names `track` (and is allowed by
 * the rules): only GitTracks of its namespace for a GitTrack; ClusterGitTracks and GitTracks of
 * every namespace this deployment serves for a ClusterGitTrack. Listed as the reconciler.
 */
export async function listDependents(
  client: KubeClient,
  config: DeploymentConfig,
  track: TrackObject,
): Promise<Dependent[]> {
  const self = trackLabel(trackRefOf(track));
  const scopes: Array<[TrackKind, string | undefined]> =
    track.kind === 'GitTrack'
      ? [['GitTrack', track.metadata.namespace]]
      : [
          ['ClusterGitTrack', undefined],
          ['GitTrack', config.namespace],
        ];
  const dependents: Dependent[] = [];
  for (const [kind, namespace] of scopes) {
    if (kind === 'ClusterGitTrack' && config.clusterGitTrackMode === 'Disabled') continue;
    if (kind === 'GitTrack' && config.gitTrackMode === 'Disabled') continue;
    for (const item of await listKind(client, kind, namespace)) {
      const candidate = { ...item, kind };
      const ref = trackRefOf(candidate);
      if (trackRefusal(config, ref)) continue;
      const deps = dependencyRefs(candidate);
      if ('refusal' in deps || !deps.refs.some((r) => trackLabel(r) === self) || trackLabel(ref) === self)
        continue;
      dependents.push({ track: ref, sameRepository: item.spec.repository === track.spec.repository });
    }
  }
  return dependents;
}

async function listKind(client: KubeClient, kind: TrackKind, namespace: string | undefined) {
  const path = resourcePath({ ...lightkeeperResources[kind], namespace });
  const items: TrackList['items'] = [];
  let next: string | undefined;
  do {
    const page: TrackList = await client.get(path, { query: { limit: 500, continue: next } });
    items.push(...page.items);
    next = page.metadata?.continue || undefined;
  } while (next);
  return items;
}
